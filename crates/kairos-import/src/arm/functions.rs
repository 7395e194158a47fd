//! The template functions Scheduler templates use, on evaluated arguments. `parameters`,
//! `variables`, `copyIndex` and `if` need the scope and live in `eval.rs`; date functions are in
//! `dates.rs`.

use super::dates;
use super::error::ArmError;
use super::eval::{as_int, describe, Scope};
use super::unique::unique_string;
use serde_json::{Map, Value};

/// Functions Azure has that Kairos refuses, with why: they read the live Azure environment.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("reference", "Kairos cannot read other Azure resources"),
    ("providers", "Kairos cannot read other Azure resources"),
    ("pickzones", "Kairos cannot read other Azure resources"),
    ("environment", "Kairos is not an Azure cloud"),
    ("managementgroup", "Kairos deploys into one resource group"),
    ("tenant", "Kairos deploys into one resource group"),
    (
        "extensionresourceid",
        "Kairos deploys into one resource group",
    ),
    ("tenantresourceid", "Kairos deploys into one resource group"),
    (
        "newguid",
        "a new value on each import would change the job each time",
    ),
];

/// Call the function `lower` (the name in lower case; `name` as written, for messages).
pub fn call(lower: &str, name: &str, args: Vec<Value>, scope: &Scope) -> Result<Value, ArmError> {
    if lower.starts_with("list") {
        return Err(ArmError::Unsupported {
            function: name.to_string(),
            why: "Kairos cannot read other Azure resources",
        });
    }
    if let Some((_, why)) = UNSUPPORTED.iter().find(|(f, _)| *f == lower) {
        return Err(ArmError::Unsupported {
            function: name.to_string(),
            why,
        });
    }
    let f = name;
    match (lower, args.as_slice()) {
        ("true", []) => Ok(Value::Bool(true)),
        ("false", []) => Ok(Value::Bool(false)),
        ("null", []) => Ok(Value::Null),
        ("concat", _) => concat(f, &args),
        ("format", [Value::String(pattern), rest @ ..]) => {
            format(f, pattern, rest).map(Value::from)
        }
        ("tolower", [Value::String(s)]) => Ok(Value::from(s.to_lowercase())),
        ("toupper", [Value::String(s)]) => Ok(Value::from(s.to_uppercase())),
        ("uniquestring", parts) if !parts.is_empty() => {
            let parts = parts
                .iter()
                .map(|p| {
                    p.as_str()
                        .ok_or_else(|| ArmError::arguments(f, "takes strings"))
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok(Value::from(unique_string(&parts)))
        }
        ("string", [v]) => Ok(Value::from(to_text(v))),
        ("int", [v]) => to_int(f, v).map(Value::from),
        ("bool", [v]) => to_bool(f, v).map(Value::from),
        ("equals", [a, b]) => Ok(Value::Bool(a == b)),
        ("not", [Value::Bool(b)]) => Ok(Value::Bool(!b)),
        ("and", bools) if bools.len() >= 2 => {
            all_bools(f, bools).map(|b| b.iter().all(|x| *x).into())
        }
        ("or", bools) if bools.len() >= 2 => {
            all_bools(f, bools).map(|b| b.iter().any(|x| *x).into())
        }
        ("add" | "sub" | "mul" | "div" | "mod", [a, b]) => {
            arithmetic(lower, as_int(f, a)?, as_int(f, b)?)
        }
        ("greater" | "less" | "greaterorequals" | "lessorequals", [a, b]) => {
            compare(lower, f, a, b)
        }
        ("length", [v]) => length(f, v).map(Value::from),
        ("empty", [v]) => Ok(Value::Bool(is_empty(v))),
        ("contains", [container, item]) => contains(f, container, item).map(Value::Bool),
        ("replace", [Value::String(s), Value::String(old), Value::String(new)]) => {
            Ok(Value::from(s.replace(old.as_str(), new)))
        }
        ("substring", [Value::String(s), start, rest @ ..]) => substring(f, s, start, rest.first()),
        ("trim", [Value::String(s)]) => Ok(Value::from(s.trim())),
        ("startswith", [Value::String(s), Value::String(p)]) => {
            Ok(s.to_lowercase().starts_with(&p.to_lowercase()).into())
        }
        ("endswith", [Value::String(s), Value::String(p)]) => {
            Ok(s.to_lowercase().ends_with(&p.to_lowercase()).into())
        }
        ("split", [Value::String(s), delimiters]) => split(f, s, delimiters),
        ("first" | "last", [v]) => first_or_last(lower == "first", v),
        ("createarray", items) => Ok(Value::Array(items.to_vec())),
        ("createobject", pairs) => create_object(f, pairs),
        ("json", [Value::String(s)]) => serde_json::from_str(s)
            .map_err(|e| ArmError::arguments(f, format!("the text is not JSON: {e}"))),
        ("union", items) if !items.is_empty() => union(f, items),
        ("coalesce", items) => Ok(items
            .iter()
            .find(|v| !v.is_null())
            .cloned()
            .unwrap_or(Value::Null)),
        ("resourceid", parts) => resource_id(f, scope, parts, true),
        ("subscriptionresourceid", parts) => resource_id(f, scope, parts, false),
        ("resourcegroup", []) => Ok(resource_group(scope)),
        ("subscription", []) => Ok(serde_json::json!({
            "id": format!("/subscriptions/{}", scope.ctx.subscription_id),
            "subscriptionId": scope.ctx.subscription_id,
        })),
        ("deployment", []) => Ok(serde_json::json!({
            "name": scope.ctx.deployment_name,
            "properties": {},
        })),
        ("utcnow", rest) => dates::utc_now(f, scope, rest),
        ("datetimeadd", rest) => dates::date_time_add(f, rest),
        (
            "format" | "tolower" | "toupper" | "uniquestring" | "string" | "int" | "bool"
            | "equals" | "not" | "and" | "or" | "length" | "empty" | "contains" | "replace"
            | "substring" | "trim" | "split" | "first" | "last" | "json" | "union"
            | "resourcegroup" | "subscription" | "deployment" | "true" | "false" | "null"
            | "startswith" | "endswith",
            _,
        ) => Err(ArmError::arguments(
            f,
            format!(
                "cannot take these arguments: {}",
                Value::Array(args.clone())
            ),
        )),
        _ => Err(ArmError::UnknownFunction {
            function: name.to_string(),
        }),
    }
}

/// How Azure turns a value into text: booleans as `True`/`False` (.NET), arrays and objects as
/// compact JSON.
pub fn to_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn to_int(f: &str, value: &Value) -> Result<i64, ArmError> {
    match value {
        Value::Number(n) => n
            .as_i64()
            .or_else(|| n.as_f64().map(|x| x.trunc() as i64))
            .ok_or_else(|| ArmError::arguments(f, format!("{n} is not an integer"))),
        Value::String(s) => s
            .trim()
            .parse()
            .map_err(|_| ArmError::arguments(f, format!("'{s}' is not an integer"))),
        other => Err(ArmError::arguments(
            f,
            format!("cannot convert {}", describe(other)),
        )),
    }
}

fn to_bool(f: &str, value: &Value) -> Result<bool, ArmError> {
    match value {
        Value::Bool(b) => Ok(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Ok(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Ok(false),
        Value::Number(n) if n.as_i64() == Some(0) => Ok(false),
        Value::Number(n) if n.as_i64() == Some(1) => Ok(true),
        other => Err(ArmError::arguments(
            f,
            format!("cannot convert {other} to a boolean"),
        )),
    }
}

fn all_bools(f: &str, values: &[Value]) -> Result<Vec<bool>, ArmError> {
    values
        .iter()
        .map(|v| {
            v.as_bool()
                .ok_or_else(|| ArmError::arguments(f, "takes booleans"))
        })
        .collect()
}

fn concat(f: &str, args: &[Value]) -> Result<Value, ArmError> {
    if !args.is_empty() && args.iter().all(Value::is_array) {
        let items = args
            .iter()
            .flat_map(|a| a.as_array().into_iter().flatten().cloned());
        return Ok(Value::Array(items.collect()));
    }
    let mut out = String::new();
    for arg in args {
        match arg {
            Value::String(_) | Value::Number(_) | Value::Bool(_) => out.push_str(&to_text(arg)),
            other => {
                return Err(ArmError::arguments(
                    f,
                    format!("cannot join {} with strings", describe(other)),
                ))
            }
        }
    }
    Ok(Value::from(out))
}

/// .NET composite formatting: `{0}`, `{1}`, `{{` and `}}`; a format spec after `:` is ignored
/// except for the argument's text.
fn format(f: &str, pattern: &str, args: &[Value]) -> Result<String, ArmError> {
    let mut out = String::new();
    let mut chars = pattern.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let hole: String = chars.by_ref().take_while(|&c| c != '}').collect();
                let index = hole.split([':', ',']).next().unwrap_or("").trim();
                let arg = index
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| args.get(i))
                    .ok_or_else(|| {
                        ArmError::arguments(f, format!("'{{{hole}}}' names no argument"))
                    })?;
                out.push_str(&to_text(arg));
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

fn arithmetic(op: &str, a: i64, b: i64) -> Result<Value, ArmError> {
    let result = match op {
        "add" => a.checked_add(b),
        "sub" => a.checked_sub(b),
        "mul" => a.checked_mul(b),
        "div" => a.checked_div(b),
        _ => a.checked_rem(b),
    };
    result
        .map(Value::from)
        .ok_or_else(|| ArmError::arguments(op, "division by zero or overflow"))
}

fn compare(op: &str, f: &str, a: &Value, b: &Value) -> Result<Value, ArmError> {
    let ordering = match (a, b) {
        (Value::Number(_), Value::Number(_)) => as_int(f, a)?.cmp(&as_int(f, b)?),
        (Value::String(x), Value::String(y)) => x.cmp(y),
        _ => {
            return Err(ArmError::arguments(
                f,
                "compares two integers or two strings",
            ))
        }
    };
    Ok(Value::Bool(match op {
        "greater" => ordering.is_gt(),
        "less" => ordering.is_lt(),
        "greaterorequals" => ordering.is_ge(),
        _ => ordering.is_le(),
    }))
}

fn length(f: &str, value: &Value) -> Result<usize, ArmError> {
    match value {
        Value::String(s) => Ok(s.chars().count()),
        Value::Array(a) => Ok(a.len()),
        Value::Object(o) => Ok(o.len()),
        other => Err(ArmError::arguments(
            f,
            format!("{} has no length", describe(other)),
        )),
    }
}

fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

fn contains(f: &str, container: &Value, item: &Value) -> Result<bool, ArmError> {
    match (container, item) {
        (Value::String(s), item) => Ok(s.contains(&to_text(item))),
        (Value::Array(items), item) => Ok(items.contains(item)),
        (Value::Object(o), Value::String(k)) => Ok(o.keys().any(|key| key.eq_ignore_ascii_case(k))),
        _ => Err(ArmError::arguments(
            f,
            "looks in a string, an array or an object",
        )),
    }
}

fn substring(f: &str, s: &str, start: &Value, length: Option<&Value>) -> Result<Value, ArmError> {
    let chars: Vec<char> = s.chars().collect();
    let start = usize::try_from(as_int(f, start)?)
        .map_err(|_| ArmError::arguments(f, "the start cannot be negative"))?;
    let length = match length {
        Some(l) => usize::try_from(as_int(f, l)?)
            .map_err(|_| ArmError::arguments(f, "the length cannot be negative"))?,
        None => chars.len().saturating_sub(start),
    };
    if start + length > chars.len() {
        return Err(ArmError::arguments(
            f,
            format!("{start}+{length} is past the end of '{s}'"),
        ));
    }
    Ok(Value::from(
        chars[start..start + length].iter().collect::<String>(),
    ))
}

fn split(f: &str, s: &str, delimiters: &Value) -> Result<Value, ArmError> {
    let delimiters: Vec<String> = match delimiters {
        Value::String(d) => vec![d.clone()],
        Value::Array(items) => items.iter().map(to_text).collect(),
        _ => {
            return Err(ArmError::arguments(
                f,
                "the delimiter must be a string or an array",
            ))
        }
    };
    let mut parts = vec![s.to_string()];
    for d in delimiters.iter().filter(|d| !d.is_empty()) {
        parts = parts
            .iter()
            .flat_map(|p| p.split(d.as_str()).map(String::from).collect::<Vec<_>>())
            .collect();
    }
    Ok(Value::Array(parts.into_iter().map(Value::from).collect()))
}

fn first_or_last(first: bool, value: &Value) -> Result<Value, ArmError> {
    let name = if first { "first" } else { "last" };
    match value {
        Value::String(s) => {
            let c = if first {
                s.chars().next()
            } else {
                s.chars().last()
            };
            Ok(Value::from(c.map(String::from).unwrap_or_default()))
        }
        Value::Array(items) => {
            let item = if first { items.first() } else { items.last() };
            Ok(item.cloned().unwrap_or(Value::Null))
        }
        other => Err(ArmError::arguments(
            name,
            format!("takes a string or an array, not {}", describe(other)),
        )),
    }
}

fn create_object(f: &str, pairs: &[Value]) -> Result<Value, ArmError> {
    if !pairs.len().is_multiple_of(2) {
        return Err(ArmError::arguments(f, "takes names and values in pairs"));
    }
    let mut out = Map::new();
    for pair in pairs.chunks(2) {
        let Value::String(name) = &pair[0] else {
            return Err(ArmError::arguments(f, "property names must be strings"));
        };
        out.insert(name.clone(), pair[1].clone());
    }
    Ok(Value::Object(out))
}

fn union(f: &str, items: &[Value]) -> Result<Value, ArmError> {
    if items.iter().all(Value::is_object) {
        let mut out = Map::new();
        for item in items.iter().filter_map(Value::as_object) {
            out.extend(item.clone());
        }
        return Ok(Value::Object(out));
    }
    if items.iter().all(Value::is_array) {
        let mut out: Vec<Value> = Vec::new();
        for item in items.iter().filter_map(Value::as_array).flatten() {
            if !out.contains(item) {
                out.push(item.clone());
            }
        }
        return Ok(Value::Array(out));
    }
    Err(ArmError::arguments(
        f,
        "takes objects or arrays, all of one kind",
    ))
}

fn resource_group(scope: &Scope) -> Value {
    let ctx = scope.ctx;
    serde_json::json!({
        "id": format!("/subscriptions/{}/resourceGroups/{}", ctx.subscription_id, ctx.resource_group),
        "name": ctx.resource_group,
        "type": "Microsoft.Resources/resourceGroups",
        "location": ctx.location,
        "properties": {"provisioningState": "Succeeded"},
    })
}

/// `resourceId([subscriptionId], [resourceGroupName], type, name1, name2...)`: the first
/// argument with a `/` is the type; its segments after the namespace take one name each.
fn resource_id(f: &str, scope: &Scope, parts: &[Value], in_group: bool) -> Result<Value, ArmError> {
    let parts = parts
        .iter()
        .map(|p| {
            p.as_str()
                .ok_or_else(|| ArmError::arguments(f, "takes strings"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let Some(type_at) = parts.iter().position(|p| p.contains('/')) else {
        return Err(ArmError::arguments(
            f,
            "needs a resource type such as 'Microsoft.Scheduler/jobCollections'",
        ));
    };
    let (scope_parts, rest) = parts.split_at(type_at);
    let ctx = scope.ctx;
    let (subscription, group) = match (in_group, scope_parts) {
        (true, []) => (
            ctx.subscription_id.as_str(),
            Some(ctx.resource_group.as_str()),
        ),
        (true, [g]) => (ctx.subscription_id.as_str(), Some(*g)),
        (true, [s, g]) => (*s, Some(*g)),
        (false, []) => (ctx.subscription_id.as_str(), None),
        (false, [s]) => (*s, None),
        _ => {
            return Err(ArmError::arguments(
                f,
                "has too many arguments before the resource type",
            ))
        }
    };
    let mut segments = rest[0].split('/');
    let namespace = segments.next().unwrap_or_default();
    let types: Vec<&str> = segments.collect();
    let names = &rest[1..];
    if types.len() != names.len() {
        return Err(ArmError::arguments(
            f,
            format!(
                "the type '{}' needs {} name(s), got {}",
                rest[0],
                types.len(),
                names.len()
            ),
        ));
    }
    let mut id = format!("/subscriptions/{subscription}");
    if let Some(group) = group {
        id.push_str(&format!("/resourceGroups/{group}"));
    }
    id.push_str(&format!("/providers/{namespace}"));
    for (t, n) in types.iter().zip(names) {
        id.push_str(&format!("/{t}/{n}"));
    }
    Ok(Value::from(id))
}
