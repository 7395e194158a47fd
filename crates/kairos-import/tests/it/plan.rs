use kairos_import::{ImportPlan, PlannedCollection, PlannedJob};
use serde_json::json;

#[test]
fn jobs_are_listed_with_their_collection_in_document_order() {
    let job = |name: &str| PlannedJob {
        name: name.into(),
        body: json!({"properties": {}}),
        source: format!("line {}", name.len()),
    };
    let plan = ImportPlan {
        collections: vec![
            PlannedCollection {
                name: Some("a".into()),
                jobs: vec![job("one"), job("two")],
                ..Default::default()
            },
            PlannedCollection {
                name: Some("b".into()),
                jobs: vec![job("three")],
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let listed: Vec<_> = plan
        .jobs()
        .map(|(c, j)| (c.name.clone().unwrap(), j.name.clone()))
        .collect();
    assert_eq!(
        listed,
        [("a", "one"), ("a", "two"), ("b", "three")].map(|(c, j)| (c.to_string(), j.to_string()))
    );
}
