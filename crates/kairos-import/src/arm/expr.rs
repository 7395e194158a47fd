//! The template expression language: `[concat(parameters('a'), '-', variables('b')[0].name)]`.
//!
//! A JSON string is an expression when it starts with `[` and ends with `]`; `[[` at the start
//! escapes a literal that would otherwise read as one (the first `[` is dropped). Inside, the
//! grammar is small: function calls, `'single-quoted'` strings with `''` for a quote, integers,
//! and property access (`.name`, `['name']`, `[0]`) on any value.

use super::error::ArmError;

/// One parsed expression.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr {
    String(String),
    Integer(i64),
    Call {
        name: String,
        args: Vec<Expr>,
    },
    /// `.name` access: the property name is known when parsing.
    Property(Box<Expr>, String),
    /// `[expr]` access: an index into an array or a property name computed at evaluation.
    Index(Box<Expr>, Box<Expr>),
}

/// What a JSON string in a template stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum TemplateString {
    Literal(String),
    Expression(Expr),
}

/// Read a JSON string of a template: a literal (with the `[[` escape undone) or an expression.
pub fn classify(text: &str) -> Result<TemplateString, ArmError> {
    if !(text.starts_with('[') && text.ends_with(']') && text.len() >= 2) {
        return Ok(TemplateString::Literal(text.to_string()));
    }
    if let Some(rest) = text.strip_prefix("[[") {
        return Ok(TemplateString::Literal(format!("[{rest}")));
    }
    parse(&text[1..text.len() - 1]).map(TemplateString::Expression)
}

/// Parse the inside of `[...]`.
pub fn parse(source: &str) -> Result<Expr, ArmError> {
    let mut parser = Parser {
        source,
        chars: source.char_indices().collect(),
        at: 0,
    };
    parser.skip_spaces();
    let expr = parser.expression()?;
    parser.skip_spaces();
    if parser.at < parser.chars.len() {
        return Err(parser.error("unexpected text after the expression"));
    }
    Ok(expr)
}

struct Parser<'a> {
    source: &'a str,
    chars: Vec<(usize, char)>,
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|&(_, c)| c)
    }

    fn skip_spaces(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.at += 1;
        }
    }

    fn error(&self, what: &str) -> ArmError {
        let column = self.at + 1;
        ArmError::Syntax {
            expression: self.source.to_string(),
            message: format!("{what} (at character {column})"),
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), ArmError> {
        self.skip_spaces();
        if self.peek() == Some(wanted) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(&format!("expected '{wanted}'")))
        }
    }

    /// A primary value followed by any number of accessors.
    fn expression(&mut self) -> Result<Expr, ArmError> {
        let mut expr = self.primary()?;
        loop {
            self.skip_spaces();
            match self.peek() {
                Some('.') => {
                    self.at += 1;
                    self.skip_spaces();
                    let name = self.identifier()?;
                    expr = Expr::Property(Box::new(expr), name);
                }
                Some('[') => {
                    self.at += 1;
                    self.skip_spaces();
                    let index = self.expression()?;
                    self.expect(']')?;
                    expr = Expr::Index(Box::new(expr), Box::new(index));
                }
                _ => return Ok(expr),
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, ArmError> {
        self.skip_spaces();
        match self.peek() {
            Some('\'') => self.string(),
            Some(c) if c.is_ascii_digit() || c == '-' => self.integer(),
            Some(c) if c.is_alphabetic() || c == '_' => {
                let name = self.identifier()?;
                self.skip_spaces();
                if self.peek() != Some('(') {
                    return Err(self.error(&format!("'{name}' must be called, as '{name}()'")));
                }
                self.at += 1;
                let args = self.arguments()?;
                Ok(Expr::Call { name, args })
            }
            Some(_) => Err(self.error("expected a function call, a 'string' or a number")),
            None => Err(self.error("the expression ends too early")),
        }
    }

    fn arguments(&mut self) -> Result<Vec<Expr>, ArmError> {
        let mut args = Vec::new();
        self.skip_spaces();
        if self.peek() == Some(')') {
            self.at += 1;
            return Ok(args);
        }
        loop {
            args.push(self.expression()?);
            self.skip_spaces();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(')') => {
                    self.at += 1;
                    return Ok(args);
                }
                _ => return Err(self.error("expected ',' or ')' after an argument")),
            }
        }
    }

    fn identifier(&mut self) -> Result<String, ArmError> {
        let start = self.at;
        while self
            .peek()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            self.at += 1;
        }
        if start == self.at {
            return Err(self.error("expected a name"));
        }
        Ok(self.chars[start..self.at].iter().map(|&(_, c)| c).collect())
    }

    fn string(&mut self) -> Result<Expr, ArmError> {
        self.at += 1; // the opening quote
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error("a 'string' is not closed")),
                Some('\'') if self.chars.get(self.at + 1).map(|&(_, c)| c) == Some('\'') => {
                    text.push('\'');
                    self.at += 2;
                }
                Some('\'') => {
                    self.at += 1;
                    return Ok(Expr::String(text));
                }
                Some(c) => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
    }

    fn integer(&mut self) -> Result<Expr, ArmError> {
        let start = self.at;
        if self.peek() == Some('-') {
            self.at += 1;
        }
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.at += 1;
        }
        let text: String = self.chars[start..self.at].iter().map(|&(_, c)| c).collect();
        text.parse()
            .map(Expr::Integer)
            .map_err(|_| self.error(&format!("'{text}' is not a whole number")))
    }
}
