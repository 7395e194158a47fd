//! Plans, quotas, deleting a collection and pausing every job from the window
//! (`collections.rs`) over a temporary database: every refusal on the dialog's field.

use super::{last_friday_at_0515, setup};
use kairos_desktop::collections;
use kairos_desktop::commands as c;
use kairos_desktop::dto::{CollectionPlan, CommandError};

fn plan(name: &str, max_job_count: Option<i32>) -> CollectionPlan {
    CollectionPlan {
        plan: name.into(),
        max_job_count,
        max_recurrence_frequency: None,
        max_recurrence_interval: None,
    }
}

fn field(e: &CommandError) -> &str {
    assert_eq!(e.errors.len(), 1, "{e:?}");
    e.errors[0].path.as_str()
}

#[test]
fn a_collection_is_created_with_its_plan_and_quota() {
    let s = setup();
    let d = &s.desktop;
    let made = collections::create(d, "ops", Some(&plan("Standard", Some(5)))).unwrap();
    assert_eq!(made.id, "local/desktop/ops");
    assert_eq!((made.plan.as_str(), made.max_job_count), ("Standard", 5));
    assert_eq!(made.min_recurrence, "1 Minute");
    assert_eq!(
        collections::get_plan(d, &made.id).unwrap(),
        plan("Standard", Some(5))
    );
    let hourly = CollectionPlan {
        max_recurrence_frequency: Some("Hour".into()),
        max_recurrence_interval: Some(2),
        ..plan("P10Premium", None)
    };
    let made = collections::create(d, "slow", Some(&hourly)).unwrap();
    assert_eq!(
        (made.max_job_count, made.min_recurrence.as_str()),
        (50, "2 Hour")
    );
    assert_eq!(collections::get_plan(d, &made.id).unwrap(), hourly);
    // Without a plan: P20Premium and its limits, as before.
    let made = c::create_collection(d, "default").unwrap();
    assert_eq!(
        (made.plan.as_str(), made.max_job_count),
        ("P20Premium", 1000)
    );
    assert_eq!(
        collections::get_plan(d, &made.id).unwrap(),
        plan("P20Premium", None)
    );
}

#[test]
fn bad_plans_and_quotas_are_refused_on_their_field() {
    let s = setup();
    let d = &s.desktop;
    let e = collections::create(d, "ops", Some(&plan("Standard", Some(0)))).unwrap_err();
    assert_eq!((field(&e), e.code.as_str()), ("maxJobCount", "BadRequest"));
    assert!(e.errors[0].message.contains("at least 1"), "{e:?}");
    let e = collections::create(d, "ops", Some(&plan("Gold", None))).unwrap_err();
    assert_eq!(field(&e), "plan");
    let bad_interval = CollectionPlan {
        max_recurrence_frequency: Some("Hour".into()),
        max_recurrence_interval: Some(-1),
        ..plan("Standard", None)
    };
    let e = collections::create(d, "ops", Some(&bad_interval)).unwrap_err();
    assert_eq!(field(&e), "maxRecurrenceInterval");
    let no_frequency = CollectionPlan {
        max_recurrence_interval: Some(2),
        ..plan("Standard", None)
    };
    let e = collections::create(d, "ops", Some(&no_frequency)).unwrap_err();
    assert_eq!(field(&e), "maxRecurrenceFrequency");
    assert!(c::list_collections(d).unwrap().is_empty());
    // A name taken; a second Free collection (the plan's rule).
    collections::create(d, "ops", Some(&plan("Free", None))).unwrap();
    let e = collections::create(d, "ops", Some(&plan("Standard", None))).unwrap_err();
    assert_eq!((field(&e), e.code.as_str()), ("name", "Conflict"));
    let e = collections::create(d, "other", Some(&plan("Free", None))).unwrap_err();
    assert_eq!((field(&e), e.code.as_str()), ("plan", "Conflict"));
    assert!(e.errors[0].message.contains("Free"), "{e:?}");
    let e = collections::create(d, " ", None).unwrap_err();
    assert_eq!(field(&e), "name");
}

#[test]
fn a_collection_plan_and_quota_are_edited() {
    let s = setup();
    let d = &s.desktop;
    let id = collections::create(d, "ops", Some(&plan("Standard", Some(5))))
        .unwrap()
        .id;
    for n in 0..6 {
        let e = c::save_job(d, &id, &format!("job{n}"), last_friday_at_0515(), true);
        assert_eq!(e.is_ok(), n < 5, "{e:?}");
    }
    // Quota removed: the plan's limits again.
    let edited = collections::update(d, &id, &plan("P10Premium", None)).unwrap();
    assert_eq!(
        (edited.plan.as_str(), edited.max_job_count),
        ("P10Premium", 50)
    );
    assert_eq!(
        collections::get_plan(d, &id).unwrap(),
        plan("P10Premium", None)
    );
    c::save_job(d, &id, "job5", last_friday_at_0515(), true).unwrap();
    // Free allows 5 jobs: refused on the plan, nothing changed.
    let e = collections::update(d, &id, &plan("Free", None)).unwrap_err();
    assert_eq!((field(&e), e.code.as_str()), ("plan", "Conflict"));
    assert!(e.errors[0].message.contains("6 jobs"), "{e:?}");
    let e = collections::update(d, &id, &plan("P20Premium", Some(-3))).unwrap_err();
    assert_eq!(field(&e), "maxJobCount");
    assert_eq!(
        collections::get_plan(d, &id).unwrap(),
        plan("P10Premium", None)
    );
    let e = collections::update(d, "local/desktop/missing", &plan("Free", None)).unwrap_err();
    assert_eq!(e.code, "ResourceNotFound");
}

#[test]
fn a_collection_is_deleted_with_its_jobs() {
    let s = setup();
    let d = &s.desktop;
    let ops = c::create_collection(d, "ops").unwrap().id;
    let keep = c::create_collection(d, "keep").unwrap().id;
    for n in 0..3 {
        c::save_job(d, &ops, &format!("job{n}"), last_friday_at_0515(), true).unwrap();
    }
    c::save_job(d, &keep, "job0", last_friday_at_0515(), true).unwrap();
    assert_eq!(c::list_collections(d).unwrap()[1].job_count, 3);
    collections::delete(d, &ops).unwrap();
    let left = c::list_collections(d).unwrap();
    assert_eq!(left.len(), 1);
    assert_eq!((left[0].name.as_str(), left[0].job_count), ("keep", 1));
    assert_eq!(c::list_jobs(d, &ops).unwrap_err().code, "ResourceNotFound");
    // Made again, it is empty: its jobs went with it.
    let again = c::create_collection(d, "ops").unwrap();
    assert_eq!(again.job_count, 0);
    assert_eq!(
        collections::delete(d, "local/desktop/gone")
            .unwrap_err()
            .code,
        "ResourceNotFound"
    );
}

#[test]
fn pause_all_and_resume_all_set_the_setting_the_tray_and_runner_read() {
    let s = setup();
    let d = &s.desktop;
    let flag = || d.engine.flag(kairos_engine::settings::PAUSED).unwrap();
    assert!(!collections::paused(d).unwrap());
    assert!(collections::set_paused(d, true).unwrap());
    assert!(collections::paused(d).unwrap() && flag());
    assert!(!collections::set_paused(d, false).unwrap());
    assert!(!collections::paused(d).unwrap() && !flag());
}
