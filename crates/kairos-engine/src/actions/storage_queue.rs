//! The Storage-queue action (spec §5.3, §12): one Put Message per attempt.
//!
//! ```text
//! POST {base}/{queueName}/messages?{sasToken}
//! Content-Type: application/xml; charset=utf-8
//!
//! <QueueMessage><MessageText>{text}</MessageText></QueueMessage>
//! ```
//! `base` is [`ExecutorConfig::storage_queue_url`] with `{account}` replaced by the storage
//! account name (`https://{account}.queue.core.windows.net` by default, or Azurite's path style
//! `http://127.0.0.1:10001/{account}` through `KAIROS_STORAGE_QUEUE_URL`). One leading `?` of the
//! SAS token is dropped (PowerShell's tokens start with one). 201 Created is success; any other
//! answer is a failure whose message gives the status and Azure's error code
//! (`403 Forbidden (AuthenticationFailed): Server failed to authenticate the request. ...`).
//!
//! The text is the XML document the Scheduler enqueued (§12.2) — the occurrence's execution tag,
//! the attempt's client request id, the expected execution time without offset, the job and
//! collection names, the region and the job's `message` — base64-encoded by default, which is
//! what Azure Functions and WebJobs queue triggers (and the classic `CloudQueueMessage.AsString`)
//! read. [`MessageEncoding::Raw`] puts the XML itself into the queue.
//!
//! Choices (docs/semantics.md, "The Storage-queue action"):
//! * `<Region>` is always `Kairos`: Azure named the region whose servers ran the job; here it is
//!   this machine, and the collection's `location` is only a label.
//! * The declaration says `encoding="utf-8"`, which is what the bytes are. Azure's said `utf-16`
//!   because .NET serialised to a string; .NET readers ignore the declared encoding when they read
//!   from a string, while byte-oriented parsers (Python's, Java's) would be misled by `utf-16`.
//! * Characters that XML 1.0 does not allow (most C0 control characters, U+FFFE, U+FFFF) cannot
//!   be sent in a queue message at all: such a message fails the attempt, naming the character.
//!
//! The SAS token never appears in a history message or a log line: errors from the HTTP stack are
//! described without the URL, and text from the response is scrubbed of the token and its
//! signature before it is shown.

use super::redirect::{self, Follow};
use super::{http, AttemptContext, ExecutorConfig, Outcome};
use base64::Engine as _;
use kairos_core::valid::StorageQueueAction;
use reqwest::header::{HeaderValue, CONTENT_TYPE};
use reqwest::{Client, Response, StatusCode, Url};

/// What `<Region>` says (see the module documentation).
pub(crate) const REGION: &str = "Kairos";

/// The storage REST version sent in `x-ms-version`. Put Message has not changed since; SAS
/// tokens carry their own `sv`, and this is old enough for every Azurite release to accept.
const STORAGE_VERSION: &str = "2018-03-28";

/// At most this much of a response body is read.
const RESPONSE_LIMIT: usize = 16 * 1024;

/// How the XML document becomes the queue message's text: Base64 of its UTF-8 bytes (the
/// default, what queue triggers expect) or the document itself.
pub(crate) use kairos_core::model::QueueMessageEncoding as MessageEncoding;

pub(super) async fn execute(
    client: &Client,
    config: &ExecutorConfig,
    action: &StorageQueueAction,
    ctx: &AttemptContext,
) -> Outcome {
    put_message(client, config, action, action.encoding, ctx).await
}

/// One Put Message of the §12.2 document, encoded as `encoding` says.
pub(crate) async fn put_message(
    client: &Client,
    config: &ExecutorConfig,
    action: &StorageQueueAction,
    encoding: MessageEncoding,
    ctx: &AttemptContext,
) -> Outcome {
    let target = Target::of(action);
    let sas = sas_query(action.sas_token.expose());
    let url = match message_url(&config.storage_queue_url, action, sas) {
        Ok(url) => url,
        Err(why) => return target.request_failed(&why),
    };
    let text = match message_text(action, ctx, encoding) {
        Ok(text) => text,
        Err(why) => return target.request_failed(&why),
    };
    let body = format!(
        "<QueueMessage><MessageText>{}</MessageText></QueueMessage>",
        escape(&text)
    );
    let host = url.host_str().unwrap_or_default().to_string();
    let mut request = client
        .post(url)
        .header(
            CONTENT_TYPE,
            HeaderValue::from_static("application/xml; charset=utf-8"),
        )
        .header("x-ms-version", STORAGE_VERSION)
        .body(body);
    // Lets the storage account's logs be matched with this attempt.
    if let Ok(id) = HeaderValue::from_str(&ctx.client_request_id) {
        request = request.header("x-ms-client-request-id", id);
    }
    let sent = match request.build() {
        Ok(request) => redirect::send(client, config, request, Follow::All).await,
        Err(e) => Err(http::describe_error(&e, config.timeout)),
    };
    let outcome = match sent {
        Ok(response) => target.describe_response(response, sas).await,
        Err(why) => target.request_failed(&format!("request to host '{host}' failed: {why}")),
    };
    tracing::debug!(
        job = %ctx.job_id,
        collection = %ctx.job_collection_id,
        account = %action.storage_account,
        queue = %action.queue_name,
        success = outcome.success,
        "storage queue action done"
    );
    outcome
}

/// The queue an attempt writes to, for the history message.
struct Target<'a> {
    account: &'a str,
    queue: &'a str,
}

impl<'a> Target<'a> {
    fn of(action: &'a StorageQueueAction) -> Target<'a> {
        Target {
            account: &action.storage_account,
            queue: &action.queue_name,
        }
    }

    fn prefix(&self) -> String {
        format!(
            "StorageQueue Action - Queue '{}' of storage account '{}'",
            self.queue, self.account
        )
    }

    fn request_failed(&self, why: &str) -> Outcome {
        Outcome::failed(format!("{}: Put Message failed: {why}", self.prefix()))
    }

    async fn describe_response(&self, mut response: Response, sas: &str) -> Outcome {
        let status = response.status();
        let header_code = response
            .headers()
            .get("x-ms-error-code")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let body = read_prefix(&mut response).await;
        let body = redact(&body, sas);
        if status == StatusCode::CREATED {
            let id = element_text(&body, "MessageId")
                .map(|id| format!(" (MessageId {id})"))
                .unwrap_or_default();
            return Outcome {
                success: true,
                message: format!("{}: message added: 201 Created{id}", self.prefix()),
            };
        }
        let status_text = match status.canonical_reason() {
            Some(reason) => format!("{} {reason}", status.as_str()),
            None => status.as_str().to_string(),
        };
        let code = element_text(&body, "Code").or(header_code);
        // Azure's Message ends with "\nRequestId:...\nTime:..."; the first line says what went wrong.
        let detail = element_text(&body, "Message")
            .map(|m| m.lines().next().unwrap_or_default().trim().to_string());
        let mut message = format!("{}: Put Message failed: {status_text}", self.prefix());
        match (code, detail) {
            (Some(code), Some(detail)) => message.push_str(&format!(" ({code}): {detail}")),
            (Some(code), None) => message.push_str(&format!(" ({code})")),
            (None, _) if !body.trim().is_empty() => message.push_str(&format!(
                ": {}",
                http::truncate_body(body.trim().as_bytes(), http::BODY_LIMIT)
            )),
            (None, _) => {}
        }
        Outcome::failed(message)
    }
}

/// The SAS token as a query string: one leading `?` dropped, surrounding blanks ignored.
fn sas_query(token: &str) -> &str {
    let token = token.trim();
    token.strip_prefix('?').unwrap_or(token)
}

/// `{base}/{queue}/messages?{sas}`. Errors never contain the SAS token.
fn message_url(template: &str, action: &StorageQueueAction, sas: &str) -> Result<Url, String> {
    let base = template.replace("{account}", &action.storage_account);
    let base = base.trim_end_matches('/');
    let mut url = Url::parse(&format!("{base}/{}/messages", action.queue_name)).map_err(|e| {
        format!("the storage queue URL template '{template}' does not make a valid URL: {e}")
    })?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "the storage queue URL template '{template}' must be an http or https URL"
        ));
    }
    url.set_query(Some(sas));
    Ok(url)
}

/// The queue message's text: the §12.2 document, base64-encoded or not.
fn message_text(
    action: &StorageQueueAction,
    ctx: &AttemptContext,
    encoding: MessageEncoding,
) -> Result<String, String> {
    let document = scheduler_document(action, ctx)?;
    Ok(match encoding {
        MessageEncoding::Base64 => base64::engine::general_purpose::STANDARD.encode(document),
        MessageEncoding::Raw => document,
    })
}

/// The XML document the Scheduler enqueued (§12.2), laid out as .NET's `XmlSerializer` did.
pub(crate) fn scheduler_document(
    action: &StorageQueueAction,
    ctx: &AttemptContext,
) -> Result<String, String> {
    if let Some((at, c)) = action
        .message
        .chars()
        .enumerate()
        .find(|&(_, c)| !xml_char(c))
    {
        return Err(format!(
            "the message contains U+{:04X} at character {}, which XML (and so a queue message) cannot carry",
            u32::from(c),
            at + 1
        ));
    }
    let expected = ctx
        .expected_execution_time
        .naive_utc()
        .format("%Y-%m-%dT%H:%M:%S%.f");
    let fields = [
        ("ExecutionTag", escape(&ctx.execution_tag)),
        ("ClientRequestId", escape(&ctx.client_request_id)),
        ("ExpectedExecutionTime", expected.to_string()),
        ("SchedulerJobId", escape(&ctx.job_id)),
        ("SchedulerJobCollectionId", escape(&ctx.job_collection_id)),
        ("Region", REGION.to_string()),
        ("Message", escape(&action.message)),
    ];
    let mut doc = String::from(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n\
         <StorageQueueMessage xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" \
         xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\r\n",
    );
    for (name, value) in fields {
        if value.is_empty() {
            doc.push_str(&format!("  <{name} />\r\n"));
        } else {
            doc.push_str(&format!("  <{name}>{value}</{name}>\r\n"));
        }
    }
    doc.push_str("</StorageQueueMessage>");
    Ok(doc)
}

/// Whether XML 1.0 allows `c` in a document.
fn xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..='\u{10FFFF}')
}

/// Text content escaped for XML. A carriage return becomes `&#xD;`, so parsers (which turn a
/// literal CR LF into LF) give it back unchanged.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => out.push_str("&#xD;"),
            c => out.push(c),
        }
    }
    out
}

/// The text of the first `<name>…</name>` element, unescaped; `None` when absent or empty.
/// Storage error and result bodies are flat and small: no XML parser needed.
fn element_text(xml: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = xml.find(&open)? + open.len();
    let end = start + xml[start..].find(&close)?;
    let text = unescape(&xml[start..end]);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';').filter(|&e| e <= 10) else {
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..end];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            _ => entity
                .strip_prefix("#x")
                .or_else(|| entity.strip_prefix("#X"))
                .and_then(|hex| u32::from_str_radix(hex, 16).ok())
                .or_else(|| entity.strip_prefix('#').and_then(|d| d.parse().ok()))
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Up to [`RESPONSE_LIMIT`] bytes of the body as text (what cannot be read is left out).
async fn read_prefix(response: &mut Response) -> String {
    let mut kept = Vec::new();
    while kept.len() < RESPONSE_LIMIT {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = (RESPONSE_LIMIT - kept.len()).min(chunk.len());
                kept.extend_from_slice(&chunk[..room]);
            }
            Ok(None) | Err(_) => break,
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// `text` with the SAS token and its signature (as sent and percent-decoded) masked. A storage
/// service does not echo the signature, but a proxy or a misconfigured endpoint might.
fn redact(text: &str, sas: &str) -> String {
    let mut secrets: Vec<String> = Vec::new();
    if !sas.is_empty() {
        secrets.push(sas.to_string());
    }
    if let Ok(parsed) = Url::parse(&format!("http://x/?{sas}")) {
        for (name, value) in parsed.query_pairs() {
            if name.eq_ignore_ascii_case("sig") && !value.is_empty() {
                secrets.push(value.into_owned());
            }
        }
    }
    for pair in sas.split('&') {
        if let Some((name, value)) = pair.split_once('=') {
            if name.eq_ignore_ascii_case("sig") && !value.is_empty() {
                secrets.push(value.to_string());
            }
        }
    }
    // Longest first, so a signature inside the whole token does not leave the rest behind.
    secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    let mut out = text.to_string();
    for secret in secrets {
        out = out.replace(&secret, "***");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};
    use kairos_core::model::Secret;

    fn action(message: &str) -> StorageQueueAction {
        StorageQueueAction {
            storage_account: "devstoreaccount1".into(),
            queue_name: "errors".into(),
            sas_token: Secret::new("?sv=2020-08-04&sp=a&sig=abc%2Bdef%3D"),
            message: message.into(),
            encoding: MessageEncoding::Base64,
        }
    }

    fn ctx() -> AttemptContext {
        AttemptContext {
            job_id: "Test".into(),
            job_collection_id: "WebJobs-SouthCentralUS".into(),
            expected_execution_time: Utc.with_ymd_and_hms(2014, 1, 30, 20, 31, 13).unwrap(),
            execution_tag: "53d0bfb54125e2c3fba3040f86b7323c".into(),
            client_request_id: "d7737f7c-0880-4072-8b95-f5db2f8ad572".into(),
            failure: None,
        }
    }

    #[test]
    fn the_document_is_the_one_azure_enqueued() {
        let doc = scheduler_document(&action("test"), &ctx()).unwrap();
        assert_eq!(
            doc,
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n\
             <StorageQueueMessage xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\">\r\n\
             \x20 <ExecutionTag>53d0bfb54125e2c3fba3040f86b7323c</ExecutionTag>\r\n\
             \x20 <ClientRequestId>d7737f7c-0880-4072-8b95-f5db2f8ad572</ClientRequestId>\r\n\
             \x20 <ExpectedExecutionTime>2014-01-30T20:31:13</ExpectedExecutionTime>\r\n\
             \x20 <SchedulerJobId>Test</SchedulerJobId>\r\n\
             \x20 <SchedulerJobCollectionId>WebJobs-SouthCentralUS</SchedulerJobCollectionId>\r\n\
             \x20 <Region>Kairos</Region>\r\n\
             \x20 <Message>test</Message>\r\n\
             </StorageQueueMessage>"
        );
    }

    #[test]
    fn the_message_is_escaped_and_an_empty_one_is_an_empty_element() {
        let doc = scheduler_document(&action("a<b>&c \"d\" 'e'\r\nf\tg é😀"), &ctx()).unwrap();
        assert!(
            doc.contains("<Message>a&lt;b&gt;&amp;c \"d\" 'e'&#xD;\nf\tg é😀</Message>"),
            "{doc}"
        );
        let doc = scheduler_document(&action(""), &ctx()).unwrap();
        assert!(doc.contains("<Message />"), "{doc}");
    }

    #[test]
    fn characters_xml_cannot_carry_fail_the_attempt() {
        let err = scheduler_document(&action("ab\u{1}c"), &ctx()).unwrap_err();
        assert!(err.contains("U+0001 at character 3"), "{err}");
        assert!(scheduler_document(&action("\u{FFFE}"), &ctx()).is_err());
        assert!(scheduler_document(&action("\u{FFFD}\u{10FFFF}"), &ctx()).is_ok());
    }

    #[test]
    fn sub_second_expected_times_keep_their_fraction() {
        let mut c = ctx();
        c.expected_execution_time = Utc.timestamp_millis_opt(1_391_113_873_250).unwrap();
        let doc = scheduler_document(&action("x"), &c).unwrap();
        assert!(
            doc.contains("<ExpectedExecutionTime>2014-01-30T20:31:13.250</ExpectedExecutionTime>"),
            "{doc}"
        );
    }

    #[test]
    fn base64_is_the_default_and_raw_is_the_document() {
        let a = action("hi");
        let doc = scheduler_document(&a, &ctx()).unwrap();
        assert_eq!(MessageEncoding::default(), MessageEncoding::Base64);
        let encoded = message_text(&a, &ctx(), MessageEncoding::Base64).unwrap();
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(&encoded)
            .unwrap();
        assert_eq!(decoded, doc.as_bytes());
        assert_eq!(message_text(&a, &ctx(), MessageEncoding::Raw).unwrap(), doc);
    }

    #[test]
    fn urls_follow_the_template_and_drop_one_question_mark() {
        let a = action("x");
        let sas = sas_query(a.sas_token.expose());
        assert_eq!(sas, "sv=2020-08-04&sp=a&sig=abc%2Bdef%3D");
        let url = message_url(ExecutorConfig::DEFAULT_STORAGE_QUEUE_URL, &a, sas).unwrap();
        assert_eq!(
            url.as_str(),
            "https://devstoreaccount1.queue.core.windows.net/errors/messages?sv=2020-08-04&sp=a&sig=abc%2Bdef%3D"
        );
        let url = message_url("http://127.0.0.1:10001/{account}/", &a, sas).unwrap();
        assert_eq!(
            url.as_str(),
            "http://127.0.0.1:10001/devstoreaccount1/errors/messages?sv=2020-08-04&sp=a&sig=abc%2Bdef%3D"
        );
        assert_eq!(sas_query("  sv=1&sig=x "), "sv=1&sig=x");
        assert_eq!(sas_query("??sv=1"), "?sv=1", "only one '?' is dropped");
    }

    #[test]
    fn bad_templates_are_named_without_the_token() {
        let a = action("x");
        let sas = sas_query(a.sas_token.expose());
        for template in ["not a url {account}", "ftp://{account}.example"] {
            let err = message_url(template, &a, sas).unwrap_err();
            assert!(err.contains(template), "{err}");
            assert!(!err.contains("sig"), "{err}");
        }
    }

    #[test]
    fn error_bodies_give_code_and_message() {
        let body = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>AuthenticationFailed</Code>\
            <Message>Server failed to authenticate the request. Make sure the value of the Authorization header is formed correctly including the signature.\n\
            RequestId:1\nTime:2030-01-01T00:00:00.000Z</Message></Error>";
        assert_eq!(
            element_text(body, "Code").as_deref(),
            Some("AuthenticationFailed")
        );
        assert!(element_text(body, "Message")
            .unwrap()
            .starts_with("Server failed to authenticate the request."));
        assert_eq!(element_text(body, "Missing"), None);
        assert_eq!(
            unescape("a &amp; b &lt;c&gt; &#x41;&#66; &bogus; & x"),
            "a & b <c> AB &bogus; & x"
        );
    }

    #[test]
    fn redaction_masks_the_token_and_the_signature() {
        let sas = "sv=2020-08-04&sp=a&sig=abc%2Bdef%3D";
        assert_eq!(redact(&format!("url ?{sas} end"), sas), "url ?*** end");
        assert_eq!(
            redact("sig was abc+def= or abc%2Bdef%3D", sas),
            "sig was *** or ***"
        );
        assert_eq!(redact("nothing here", ""), "nothing here");
    }
}
