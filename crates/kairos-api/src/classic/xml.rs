//! The Service Management API's XML: bodies read into a small tree whose element names match in
//! any case and any namespace (the Python client sends `<plan>` where the service documents
//! `<Plan>`), and answers written with the service's namespace.

use crate::error::ApiError;

pub(crate) const NAMESPACE: &str = "http://schemas.microsoft.com/windowsazure";

/// An element of a request body: local name, text (trimmed) and child elements.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Element {
    pub name: String,
    pub text: String,
    pub children: Vec<Element>,
}

impl Element {
    /// The document's root element, or a `BadRequest` that says where the XML is broken.
    pub fn parse(text: &str) -> Result<Element, ApiError> {
        let document = roxmltree::Document::parse(text).map_err(|e| {
            ApiError::bad_request("", format!("the request body is not valid XML: {e}"))
        })?;
        Ok(Element::from_node(document.root_element()))
    }

    fn from_node(node: roxmltree::Node<'_, '_>) -> Element {
        let mut element = Element {
            name: node.tag_name().name().to_string(),
            ..Element::default()
        };
        for child in node.children() {
            if child.is_element() {
                element.children.push(Element::from_node(child));
            } else if let Some(text) = child.text() {
                element.text.push_str(text);
            }
        }
        element.text = element.text.trim().to_string();
        element
    }

    pub fn is(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name)
    }

    /// The first child of this name, in any case.
    pub fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.is(name))
    }

    /// The text of the child of this name, if it is there.
    pub fn text_of(&self, name: &str) -> Option<&str> {
        self.child(name).map(|c| c.text.as_str())
    }
}

/// An XML answer under construction. Element names are ours; text is escaped.
pub(crate) struct Writer {
    out: String,
}

impl Writer {
    /// A document whose root element `root` carries the service's namespaces.
    pub fn new(root: &str) -> Writer {
        Writer {
            out: format!(
                "<?xml version=\"1.0\" encoding=\"utf-8\"?><{root} xmlns=\"{NAMESPACE}\" xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">"
            ),
        }
    }

    pub fn open(&mut self, name: &str) -> &mut Self {
        self.out.push('<');
        self.out.push_str(name);
        self.out.push('>');
        self
    }

    pub fn close(&mut self, name: &str) -> &mut Self {
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
        self
    }

    /// `<name>text</name>`.
    pub fn text(&mut self, name: &str, text: impl std::fmt::Display) -> &mut Self {
        self.open(name);
        escape_into(&mut self.out, &text.to_string());
        self.close(name)
    }

    pub fn finish(mut self, root: &str) -> String {
        self.close(root);
        self.out
    }
}

fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 cannot carry at all: replaced, so the answer stays readable.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_in_any_case_and_namespace_and_text_is_unescaped() {
        let body = r#"<Resource xmlns:i="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.microsoft.com/windowsazure"><IntrinsicSettings><plan> Free </plan><Quota><MaxJobCount>7</MaxJobCount></Quota></IntrinsicSettings><Label>a &amp; b</Label></Resource>"#;
        let root = Element::parse(body).unwrap();
        assert!(root.is("resource"));
        let settings = root.child("intrinsicsettings").unwrap();
        assert_eq!(settings.text_of("Plan"), Some("Free"));
        assert_eq!(
            settings.child("QUOTA").unwrap().text_of("maxJobCount"),
            Some("7")
        );
        assert_eq!(root.text_of("Label"), Some("a & b"));
        assert_eq!(root.text_of("Missing"), None);
    }

    #[test]
    fn broken_xml_and_dtds_are_bad_requests() {
        for body in [
            "<Resource><Plan>Free</Resource>",
            "not xml",
            "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaa\">]><r>&a;&a;</r>",
        ] {
            let e = Element::parse(body).unwrap_err();
            assert_eq!(e.status.as_u16(), 400, "{body}");
            assert!(
                e.body["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("not valid XML"),
                "{body}: {}",
                e.body
            );
        }
    }

    #[test]
    fn text_is_escaped_in_answers() {
        let mut w = Writer::new("CloudService");
        w.text("Label", "<a & 'b'>\u{1}");
        let xml = w.finish("CloudService");
        assert!(xml.contains("<Label>&lt;a &amp; &apos;b&apos;&gt;\u{FFFD}</Label>"));
        let parsed = Element::parse(&xml).unwrap();
        assert_eq!(parsed.text_of("label"), Some("<a & 'b'>\u{FFFD}"));
    }
}
