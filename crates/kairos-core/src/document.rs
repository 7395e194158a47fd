//! Reading one job definition from text, as `kairos preview` / `validate`, the API and the UI's
//! JSON tab receive it: the ARM form `{"properties": {...}}`, the bare properties object (the
//! 2015 classic form), or a bare action (`{"type": "storageQueue", ...}`, as the 2015 page prints
//! its action examples: a job with that action, run once when created), with `//` comments,
//! trailing commas and copy-pasted non-breaking spaces tolerated. A `status` block is the
//! service's to write: whatever it holds on input is dropped.
//!
//! Type errors come back with the JSON path of the offending field, always rooted at
//! `properties.` so a message reads the same whichever form was pasted.

use crate::error::{FieldError, ValidationErrors};
use crate::lenient_json::strip_comments_and_trailing_commas;
use crate::model::JobProperties;
use serde::de::value::{MapDeserializer, SeqDeserializer};
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::Value;

/// Largest job definition accepted, in bytes of its compact JSON: the docs' "16K" (§11, §15.16).
pub const MAX_JOB_SIZE: usize = 16 * 1024;

/// Parse a job definition document into its properties.
pub fn parse_job_document(text: &str) -> Result<JobProperties, ValidationErrors> {
    let properties = properties_of_document(parse_lenient_json(text)?)?;
    check_size(&properties)?;
    from_value_at(properties, "properties")
}

/// The job properties a parsed document holds, whichever form it has (ARM, bare properties,
/// bare action), without the read-only `status`. The desktop's JSON tab reads pasted text with
/// this too, before it validates.
pub fn properties_of_document(value: Value) -> Result<Value, ValidationErrors> {
    let Value::Object(mut root) = value else {
        return Err(FieldError::bad_request("", "a job definition must be a JSON object").into());
    };
    let mut properties = match root.remove("properties") {
        Some(p) => p,
        None if is_bare_action(&root) => Value::Object(serde_json::Map::from_iter([(
            "action".to_string(),
            Value::Object(root),
        )])),
        None => Value::Object(root),
    };
    let Some(fields) = properties.as_object_mut() else {
        return Err(FieldError::bad_request("properties", "must be a JSON object").into());
    };
    // Read-only (spec §5.6): ignored on input whatever it holds, so a job copied from an answer
    // or from the 2015 page (whose example status has a time with a trailing space) is accepted.
    fields.remove("status");
    Ok(properties)
}

/// An object that is an action rather than a job: it names an action `type` and has none of a
/// job's own fields. (The classic API reads its bodies with the same rule.)
pub fn is_bare_action(root: &serde_json::Map<String, Value>) -> bool {
    const JOB_FIELDS: [&str; 5] = ["startTime", "action", "recurrence", "state", "status"];
    root.get("type").is_some_and(Value::is_string)
        && !JOB_FIELDS.iter().any(|f| root.contains_key(*f))
}

/// Parse JSON that may carry comments and trailing commas.
pub fn parse_lenient_json(text: &str) -> Result<Value, ValidationErrors> {
    let cleaned = strip_comments_and_trailing_commas(text);
    serde_json::from_str(&cleaned).map_err(|e| {
        FieldError::bad_request(
            "",
            format!(
                "the input is not valid JSON (line {}, column {}): {}",
                e.line(),
                e.column(),
                strip_position(&e)
            ),
        )
        .into()
    })
}

/// Deserialize `value` into `T`, reporting a type error with its path under `root`.
pub fn from_value_at<T: DeserializeOwned>(value: Value, root: &str) -> Result<T, ValidationErrors> {
    serde_path_to_error::deserialize(ObjectsOnly(value)).map_err(|e| {
        let inner = e.path().to_string();
        let path = match (root.is_empty(), inner.as_str()) {
            (true, _) => inner.clone(),
            (false, ".") | (false, "") => root.to_string(),
            (false, _) if inner.starts_with('[') => format!("{root}{inner}"),
            (false, _) => format!("{root}.{inner}"),
        };
        FieldError::bad_request(path, humanize_serde_message(&e.into_inner().to_string())).into()
    })
}

/// A `Value` that deserializes as itself, except that an array is refused where an object is
/// expected. serde's derived structs also accept an array read field by field (`["Day", 5, 3,
/// null, null]` as a recurrence); the wire format has no such form, so it is a type error like
/// any other.
#[derive(Debug)]
struct ObjectsOnly(Value);

impl<'de> de::Deserializer<'de> for ObjectsOnly {
    type Error = serde_json::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(items) => {
                let mut seq = SeqDeserializer::new(items.into_iter().map(ObjectsOnly));
                let value = visitor.visit_seq(&mut seq)?;
                seq.end()?;
                Ok(value)
            }
            Value::Object(map) => {
                let mut access =
                    MapDeserializer::new(map.into_iter().map(|(k, v)| (k, ObjectsOnly(v))));
                let value = visitor.visit_map(&mut access)?;
                access.end()?;
                Ok(value)
            }
            other => other.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            other => visitor.visit_some(ObjectsOnly(other)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        match self.0 {
            Value::Array(_) => Err(de::Error::invalid_type(de::Unexpected::Seq, &visitor)),
            other => ObjectsOnly(other).deserialize_any(visitor),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map identifier ignored_any
    }
}

impl<'de> IntoDeserializer<'de, serde_json::Error> for ObjectsOnly {
    type Deserializer = Self;

    fn into_deserializer(self) -> Self {
        self
    }
}

fn check_size(properties: &Value) -> Result<(), ValidationErrors> {
    let size = serde_json::to_string(properties)
        .map(|s| s.len())
        .unwrap_or(0);
    if size > MAX_JOB_SIZE {
        return Err(FieldError::bad_request(
            "properties",
            format!("the job definition is {size} bytes; the limit is {MAX_JOB_SIZE} bytes (16K)"),
        )
        .into());
    }
    Ok(())
}

/// serde_json appends " at line X column Y"; we report the position ourselves.
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Turn serde's wording ("invalid type: string \"x\", expected i64") into a sentence in JSON's
/// terms: no Rust type names ("struct JobAction", "sequence", "map") reach the user.
fn humanize_serde_message(message: &str) -> String {
    let message = message.replace("expected i64", "expected an integer");
    match message.strip_prefix("invalid type: ") {
        Some(rest) => match rest.split_once(", expected ") {
            Some((got, want)) => format!("expected {}, got {}", json_kind(want), json_kind(got)),
            None => message.clone(),
        },
        None => message,
    }
}

fn json_kind(serde_words: &str) -> &str {
    match serde_words {
        "map" | "a map" => "an object",
        "sequence" | "a sequence" => "an array",
        "unit value" => "null",
        w if w.starts_with("struct ") => "an object",
        w => w,
    }
}
