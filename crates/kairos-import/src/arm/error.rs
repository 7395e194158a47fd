//! Why an expression of a template could not be evaluated. The template walk puts the resource
//! and the property path in front (`resources[1] (jobs 'nightly'), properties.action...: ...`).

use thiserror::Error;

/// One evaluation failure, without its place in the template.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ArmError {
    #[error("the expression '{expression}' cannot be read: {message}")]
    Syntax { expression: String, message: String },
    #[error("the template function '{function}' is not supported ({why})")]
    Unsupported { function: String, why: &'static str },
    #[error("'{function}' is not a template function Kairos knows")]
    UnknownFunction { function: String },
    #[error("'{function}': {message}")]
    Arguments { function: String, message: String },
    #[error("the template has no parameter '{0}'")]
    UnknownParameter(String),
    #[error("the parameter '{0}' has no value (give one in the parameters file)")]
    ParameterWithoutValue(String),
    #[error("the template has no variable '{0}'")]
    UnknownVariable(String),
    #[error("the variable '{0}' refers to itself")]
    CircularVariable(String),
    #[error("{0}")]
    Access(String),
    #[error("'copyIndex' is used outside a copy loop{0}")]
    CopyIndexOutsideCopy(String),
}

impl ArmError {
    pub(crate) fn arguments(function: &str, message: impl Into<String>) -> Self {
        ArmError::Arguments {
            function: function.to_string(),
            message: message.into(),
        }
    }
}
