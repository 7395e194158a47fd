//! Enums of the wire format. Real clients send them in any case (`week`, `Week`, `WEEK`), and the
//! docs use a few aliases (`monthly`); we accept all of that and always emit the canonical
//! PascalCase value, which every Azure SDK parses case-insensitively.

/// Declares a closed wire enum with case-insensitive parsing, aliases and a helpful error that
/// lists the accepted values.
macro_rules! wire_enum {
    ($(#[$meta:meta])* $name:ident { $($variant:ident = $wire:literal $(| $alias:literal)*),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($variant),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The canonical wire spelling.
            pub fn as_str(self) -> &'static str {
                match self { $($name::$variant => $wire),+ }
            }

            /// Case-insensitive parse, aliases included.
            pub fn parse(text: &str) -> Option<Self> {
                let text = text.trim();
                $(
                    if text.eq_ignore_ascii_case($wire) $(|| text.eq_ignore_ascii_case($alias))* {
                        return Some($name::$variant);
                    }
                )+
                None
            }

            /// "A, B or C", for error messages.
            pub fn expected() -> String {
                crate::model::wire_enum::one_of(&[$($wire),+])
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <std::borrow::Cow<'de, str> as serde::Deserialize>::deserialize(deserializer)?;
                $name::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "'{}' is not a valid value; expected {}",
                        text,
                        $name::expected()
                    ))
                })
            }
        }
    };
}
pub(crate) use wire_enum;

/// Join values as "A, B or C".
pub(crate) fn one_of(values: &[&str]) -> String {
    match values {
        [] => String::new(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}
