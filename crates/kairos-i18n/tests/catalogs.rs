//! The Fluent linter CI runs: every catalog parses with no junk, and every language has exactly
//! English's message ids with, per message, the same variables. (`fl!` checks the code's ids and
//! arguments against English at compile time; this checks the other languages against English.)

use fluent_syntax::ast::{Entry, Expression, InlineExpression, Pattern, PatternElement};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

const LANGUAGES: [&str; 5] = ["en", "zh-TW", "de", "pt-BR", "fr"];

/// Message id → the variables it uses.
type Messages = BTreeMap<String, BTreeSet<String>>;

fn catalog_path(tag: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("i18n/{tag}/kairos_i18n.ftl"))
}

fn messages(tag: &str) -> Messages {
    let path = catalog_path(tag);
    let source = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let resource = match fluent_syntax::parser::parse(source.as_str()) {
        Ok(resource) => resource,
        Err((_, errors)) => panic!("{tag}: {errors:?}"),
    };
    let mut out = Messages::new();
    for entry in &resource.body {
        match entry {
            Entry::Message(message) => {
                let mut variables = BTreeSet::new();
                let value = message.value.as_ref();
                let value =
                    value.unwrap_or_else(|| panic!("{tag}: {} has no value", message.id.name));
                pattern_variables(value, &mut variables);
                let before = out.insert(message.id.name.to_string(), variables);
                assert!(before.is_none(), "{tag}: {} twice", message.id.name);
            }
            Entry::Junk { content } => panic!("{tag}: junk: {content}"),
            _ => {}
        }
    }
    out
}

fn pattern_variables(pattern: &Pattern<&str>, out: &mut BTreeSet<String>) {
    for element in &pattern.elements {
        if let PatternElement::Placeable { expression } = element {
            expression_variables(expression, out);
        }
    }
}

fn expression_variables(expression: &Expression<&str>, out: &mut BTreeSet<String>) {
    match expression {
        Expression::Inline(inline) => inline_variables(inline, out),
        Expression::Select { selector, variants } => {
            inline_variables(selector, out);
            for variant in variants {
                pattern_variables(&variant.value, out);
            }
        }
    }
}

fn inline_variables(inline: &InlineExpression<&str>, out: &mut BTreeSet<String>) {
    match inline {
        InlineExpression::VariableReference { id } => {
            out.insert(id.name.to_string());
        }
        InlineExpression::FunctionReference { arguments, .. } => {
            for argument in &arguments.positional {
                inline_variables(argument, out);
            }
            for named in &arguments.named {
                inline_variables(&named.value, out);
            }
        }
        InlineExpression::Placeable { expression } => expression_variables(expression, out),
        _ => {}
    }
}

#[test]
fn every_catalog_parses_and_matches_english() {
    let english = messages("en");
    assert!(
        english.len() > 40,
        "the English catalog: {} messages",
        english.len()
    );
    for tag in &LANGUAGES[1..] {
        let other = messages(tag);
        let missing: Vec<_> = english
            .keys()
            .filter(|id| !other.contains_key(*id))
            .collect();
        let extra: Vec<_> = other
            .keys()
            .filter(|id| !english.contains_key(*id))
            .collect();
        assert!(missing.is_empty(), "{tag} lacks {missing:?}");
        assert!(extra.is_empty(), "{tag} has ids English lacks: {extra:?}");
        for (id, variables) in &english {
            assert_eq!(&other[id], variables, "{tag}: the variables of {id}");
        }
    }
}

#[test]
fn catalogs_follow_each_language_s_punctuation() {
    for tag in LANGUAGES {
        let source = std::fs::read_to_string(catalog_path(tag)).unwrap();
        for line in source
            .lines()
            .filter(|l| !l.starts_with('#') && l.contains(" = "))
        {
            let (id, text) = line.split_once(" = ").unwrap();
            assert!(!text.contains("  "), "{tag} {id}: a double space");
            assert!(!text.contains('\u{2068}'), "{tag} {id}: an isolation mark");
            if tag == "zh-TW" {
                // Full-width punctuation inside Chinese sentences (the access key's "(&F)" and
                // the placeables' braces are syntax, not punctuation).
                let prose = text.replace("(&", "").replace([')', '{', '}', '$'], "");
                for ascii in [',', ':', ';', '?', '!', '(', ')'] {
                    assert!(
                        !prose.contains(ascii),
                        "{tag} {id}: ASCII {ascii:?} in {text}"
                    );
                }
            }
            if tag == "fr" {
                for mark in [" :", " ?", " !", "« ", " »"] {
                    assert!(
                        !text.contains(mark),
                        "{tag} {id}: a plain space in {mark:?}"
                    );
                }
            }
        }
    }
}
