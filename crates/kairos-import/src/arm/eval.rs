//! Evaluating expressions and the JSON values that hold them, against a template's parameters,
//! its variables and the deployment context.

use super::error::ArmError;
use super::expr::{classify, Expr, TemplateString};
use super::functions;
use super::DeploymentContext;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashMap;

/// Parameters and variables are looked up without regard to case, as Azure does.
fn key(name: &str) -> String {
    name.to_lowercase()
}

#[derive(Debug, Clone)]
enum Variable {
    Evaluating,
    Done(Result<Value, ArmError>),
}

/// What an expression can see. Variables are evaluated when first used (they may use each other,
/// in any order), so a variable nobody uses cannot stop an import.
#[derive(Debug)]
pub struct Scope<'a> {
    pub ctx: &'a DeploymentContext,
    parameters: HashMap<String, Result<Value, ArmError>>,
    variables_source: HashMap<String, Value>,
    variables: RefCell<HashMap<String, Variable>>,
    /// The copy loops around what is evaluated, innermost last: (loop name, index).
    copy: Vec<(String, i64)>,
    /// `utcNow` is allowed only in parameter default values, as in Azure.
    pub in_parameter_default: bool,
}

impl<'a> Scope<'a> {
    pub fn new(ctx: &'a DeploymentContext) -> Self {
        Scope {
            ctx,
            parameters: HashMap::new(),
            variables_source: HashMap::new(),
            variables: RefCell::new(HashMap::new()),
            copy: Vec::new(),
            in_parameter_default: false,
        }
    }

    pub fn set_parameter(&mut self, name: &str, value: Result<Value, ArmError>) {
        self.parameters.insert(key(name), value);
    }

    pub fn set_variables(&mut self, variables: &Map<String, Value>) {
        self.variables_source = variables
            .iter()
            .map(|(name, value)| (key(name), value.clone()))
            .collect();
        self.variables.borrow_mut().clear();
    }

    pub fn enter_copy(&mut self, name: &str, index: i64) {
        self.copy.push((name.to_string(), index));
    }

    pub fn leave_copy(&mut self) {
        self.copy.pop();
    }

    fn parameter(&self, name: &str) -> Result<Value, ArmError> {
        self.parameters
            .get(&key(name))
            .cloned()
            .unwrap_or_else(|| Err(ArmError::UnknownParameter(name.to_string())))
    }

    fn variable(&self, name: &str) -> Result<Value, ArmError> {
        let k = key(name);
        match self.variables.borrow().get(&k) {
            Some(Variable::Done(result)) => return result.clone(),
            Some(Variable::Evaluating) => return Err(ArmError::CircularVariable(name.to_string())),
            None => {}
        }
        let source = self
            .variables_source
            .get(&k)
            .cloned()
            .ok_or_else(|| ArmError::UnknownVariable(name.to_string()))?;
        self.variables
            .borrow_mut()
            .insert(k.clone(), Variable::Evaluating);
        // A variable's own path does not matter to the caller: the error names the expression.
        let result = self.value(&source).map_err(|(_, e)| e);
        self.variables
            .borrow_mut()
            .insert(k, Variable::Done(result.clone()));
        result
    }

    fn copy_index(&self, args: &[Value]) -> Result<Value, ArmError> {
        let (loop_name, offset) = match args {
            [] => (None, 0),
            [Value::String(name)] => (Some(name.as_str()), 0),
            [offset] => (None, as_int("copyIndex", offset)?),
            [Value::String(name), offset] => (Some(name.as_str()), as_int("copyIndex", offset)?),
            _ => {
                return Err(ArmError::arguments(
                    "copyIndex",
                    "takes an optional loop name and an optional offset",
                ))
            }
        };
        let found = match loop_name {
            None => self.copy.last(),
            Some(n) => self
                .copy
                .iter()
                .rev()
                .find(|(name, _)| name.eq_ignore_ascii_case(n)),
        };
        match found {
            Some((_, index)) => Ok(Value::from(index + offset)),
            None => Err(ArmError::CopyIndexOutsideCopy(
                loop_name
                    .map(|n| format!(" named '{n}'"))
                    .unwrap_or_default(),
            )),
        }
    }

    /// Evaluate one expression.
    pub fn expr(&self, expr: &Expr) -> Result<Value, ArmError> {
        match expr {
            Expr::String(s) => Ok(Value::String(s.clone())),
            Expr::Integer(i) => Ok(Value::from(*i)),
            Expr::Property(target, name) => {
                access(self.expr(target)?, &Value::String(name.clone()))
            }
            Expr::Index(target, index) => access(self.expr(target)?, &self.expr(index)?),
            Expr::Call { name, args } => self.call(name, args),
        }
    }

    fn call(&self, name: &str, args: &[Expr]) -> Result<Value, ArmError> {
        let lower = name.to_lowercase();
        // `if` evaluates only the branch it takes, as Azure does, so the other may fail.
        if lower == "if" {
            let [condition, yes, no] = args else {
                return Err(ArmError::arguments("if", "takes 3 arguments"));
            };
            return match self.expr(condition)? {
                Value::Bool(true) => self.expr(yes),
                Value::Bool(false) => self.expr(no),
                other => Err(ArmError::arguments(
                    "if",
                    format!("the condition must be a boolean, not {other}"),
                )),
            };
        }
        let values = args
            .iter()
            .map(|a| self.expr(a))
            .collect::<Result<Vec<_>, _>>()?;
        match lower.as_str() {
            "parameters" => self.parameter(one_string("parameters", &values)?),
            "variables" => self.variable(one_string("variables", &values)?),
            "copyindex" => self.copy_index(&values),
            _ => functions::call(&lower, name, values, self),
        }
    }

    /// Evaluate every expression in a JSON value. The error comes with the path of the string
    /// that failed, relative to `value` (`action.request.uri`, `headers['x-a']`, `[2]`).
    pub fn value(&self, value: &Value) -> Result<Value, (String, ArmError)> {
        match value {
            Value::String(s) => self.string(s).map_err(|e| (String::new(), e)),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| {
                    self.value(item)
                        .map_err(|(path, e)| (format!("[{i}]{}", dotted(&path)), e))
                })
                .collect::<Result<Vec<_>, _>>()
                .map(Value::Array),
            Value::Object(fields) => {
                let mut out = Map::new();
                for (name, item) in fields {
                    let evaluated = self
                        .value(item)
                        .map_err(|(path, e)| (join(name, &path), e))?;
                    out.insert(name.clone(), evaluated);
                }
                Ok(Value::Object(out))
            }
            other => Ok(other.clone()),
        }
    }

    /// A JSON string of the template: a literal or the value of its expression.
    pub fn string(&self, text: &str) -> Result<Value, ArmError> {
        match classify(text)? {
            TemplateString::Literal(s) => Ok(Value::String(s)),
            TemplateString::Expression(e) => self.expr(&e),
        }
    }
}

/// `a` + `b.c` → `a.b.c`; `a` + `[0]` → `a[0]`.
pub fn join(head: &str, tail: &str) -> String {
    let head = if head
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    {
        head.to_string()
    } else {
        format!("['{head}']")
    };
    match tail {
        "" => head,
        t if t.starts_with('[') => format!("{head}{t}"),
        t => format!("{head}.{t}"),
    }
}

fn dotted(path: &str) -> String {
    if path.is_empty() || path.starts_with('[') {
        path.to_string()
    } else {
        format!(".{path}")
    }
}

/// `x.name`, `x['name']` and `x[0]`. Property names are matched without regard to case, as
/// Azure does (`resourceGroup().Location` works).
fn access(target: Value, index: &Value) -> Result<Value, ArmError> {
    match (&target, index) {
        (Value::Object(fields), Value::String(name)) => fields
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .ok_or_else(|| ArmError::Access(format!("the object has no property '{name}'"))),
        (Value::Array(items), Value::Number(n)) => n
            .as_u64()
            .and_then(|i| items.get(i as usize))
            .cloned()
            .ok_or_else(|| {
                ArmError::Access(format!(
                    "index {n} is outside the array (length {})",
                    items.len()
                ))
            }),
        _ => Err(ArmError::Access(format!(
            "{index} cannot be read from {}",
            describe(&target)
        ))),
    }
}

pub fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn one_string<'v>(function: &str, values: &'v [Value]) -> Result<&'v str, ArmError> {
    match values {
        [Value::String(s)] => Ok(s),
        _ => Err(ArmError::arguments(function, "takes one string argument")),
    }
}

pub fn as_int(function: &str, value: &Value) -> Result<i64, ArmError> {
    value
        .as_i64()
        .ok_or_else(|| ArmError::arguments(function, format!("expected an integer, not {value}")))
}
