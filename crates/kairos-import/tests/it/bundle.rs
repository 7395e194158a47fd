//! Kairos bundles: the text round trip, secrets sealed with a passphrase and put back in place,
//! and the errors a person can meet (wrong or missing passphrase, a newer bundle, not a bundle).

use kairos_import::bundle::{
    secret_key, Bundle, BundleCollection, BundleError, BundleJob, Secrets,
};
use serde_json::json;

fn collections() -> Vec<BundleCollection> {
    vec![BundleCollection {
        resource_group: "desktop".into(),
        name: "ops".into(),
        collection: json!({"location": "local", "properties": {"sku": {"name": "Standard"},
            "calendars": {"holidays": {"dates": ["2030-12-25"]}}}}),
        jobs: vec![BundleJob {
            name: "nightly".into(),
            properties: json!({"action": {"type": "Http", "request": {"uri": "https://example.test/",
                "method": "POST", "authentication": {"type": "Basic", "username": "me"}}}}),
        }],
    }]
}

fn secrets() -> Secrets {
    let mut s = Secrets::new();
    s.entry(secret_key("desktop", "ops", "nightly"))
        .or_default()
        .insert(
            "properties.action.request.authentication.password".into(),
            "hunter2-secret".into(),
        );
    s
}

#[test]
fn a_bundle_without_secrets_reads_back_as_it_was_written() {
    let bundle = Bundle::new(collections(), None).unwrap();
    let text = bundle.to_text();
    assert!(text.starts_with("{\n  \"kairosBundle\": 1,"), "{text}");
    assert_eq!(Bundle::parse(&text).unwrap(), bundle);
    let plan = Bundle::parse(&text).unwrap().into_plan(None).unwrap();
    let c = &plan.collections[0];
    assert_eq!(
        (c.resource_group.as_deref(), c.name.as_deref()),
        (Some("desktop"), Some("ops"))
    );
    assert_eq!(
        c.body.as_ref().unwrap()["properties"]["calendars"]["holidays"]["dates"][0],
        "2030-12-25"
    );
    assert_eq!(c.jobs[0].name, "nightly");
    assert_eq!(c.jobs[0].source, "collections[0].jobs[0]");
    assert_eq!(
        c.jobs[0].body["properties"],
        collections()[0].jobs[0].properties
    );
    assert!(plan.problems.is_empty() && plan.notes.is_empty());
}

#[test]
fn secrets_travel_encrypted_and_come_back_in_place_with_the_passphrase() {
    let s = secrets();
    let text = Bundle::new(collections(), Some((&s, "correct horse")))
        .unwrap()
        .to_text();
    assert!(!text.contains("hunter2"), "the secret is not in clear");
    assert!(text.contains("-----BEGIN AGE ENCRYPTED FILE-----"));

    let err = Bundle::parse(&text).unwrap().into_plan(None).unwrap_err();
    assert!(matches!(err, BundleError::PassphraseNeeded), "{err}");
    assert!(err.to_string().contains("KAIROS_BUNDLE_PASSPHRASE"));

    let err = Bundle::parse(&text)
        .unwrap()
        .into_plan(Some("wrong horse"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "the passphrase does not open the bundle's secrets"
    );
    assert_eq!(err.code(), "PassphraseWrong");

    let plan = Bundle::parse(&text)
        .unwrap()
        .into_plan(Some("correct horse"))
        .unwrap();
    let auth =
        &plan.collections[0].jobs[0].body["properties"]["action"]["request"]["authentication"];
    assert_eq!(auth["password"], "hunter2-secret");
    assert_eq!(auth["username"], "me");
}

#[test]
fn an_empty_passphrase_is_refused() {
    let s = secrets();
    let err = Bundle::new(collections(), Some((&s, ""))).unwrap_err();
    assert_eq!(err.code(), "PassphraseEmpty");
}

#[test]
fn what_is_not_a_bundle_or_is_newer_says_so() {
    for (text, code, says) in [
        (
            "{\"jobs\": []}",
            "NotABundle",
            "no \"kairosBundle\" version",
        ),
        ("[1, 2", "NotABundle", "this is not a Kairos bundle"),
        (
            "{\"kairosBundle\": 2, \"collections\": []}",
            "BundleVersionUnsupported",
            "version 2",
        ),
        ("{\"kairosBundle\": 1}", "NotABundle", "collections"),
    ] {
        let err = Bundle::parse(text).unwrap_err();
        assert_eq!(err.code(), code, "{text}: {err}");
        assert!(err.to_string().contains(says), "{text}: {err}");
    }
}

#[test]
fn comments_and_trailing_commas_are_fine_in_a_hand_edited_bundle() {
    let text = "// backup\n{\"kairosBundle\": 1, \"collections\": [],}";
    assert_eq!(Bundle::parse(text).unwrap().collections, vec![]);
}
