//! Names of collections and jobs, and their ARM resource ids.

/// A job collection: subscription and resource group only namespace it.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionKey {
    pub subscription: String,
    pub resource_group: String,
    pub name: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct JobKey {
    pub collection: CollectionKey,
    pub name: String,
}

impl CollectionKey {
    pub fn new(
        subscription: impl Into<String>,
        resource_group: impl Into<String>,
        name: impl Into<String>,
    ) -> Self {
        CollectionKey {
            subscription: subscription.into(),
            resource_group: resource_group.into(),
            name: name.into(),
        }
    }

    pub fn job(&self, name: impl Into<String>) -> JobKey {
        JobKey {
            collection: self.clone(),
            name: name.into(),
        }
    }

    /// `/subscriptions/{sub}/resourceGroups/{rg}/providers/Microsoft.Scheduler/jobCollections/{name}`
    pub fn resource_id(&self) -> String {
        format!(
            "/subscriptions/{}/resourceGroups/{}/providers/Microsoft.Scheduler/jobCollections/{}",
            self.subscription, self.resource_group, self.name
        )
    }
}

impl JobKey {
    pub fn resource_id(&self) -> String {
        format!("{}/jobs/{}", self.collection.resource_id(), self.name)
    }
}

/// The longest name a collection, job, subscription or resource group may have, in characters.
pub const MAX_NAME_CHARS: usize = 100;

/// The rule for names the engine creates: 1 to 100 characters, not blank, no `/` (it would
/// change the resource id, and nothing could address the resource) and no control characters.
/// The REST router applies the same rule to path segments; the engine applies it to every
/// create, so the desktop app and any other caller cannot make what nothing can address.
/// `parameter` names the field in the error (`jobCollectionName`, `jobName`, ...).
pub fn check_name(name: &str, parameter: &str) -> Result<(), kairos_core::FieldError> {
    let bad = |message: String| Err(kairos_core::FieldError::bad_request(parameter, message));
    if name.trim().is_empty() {
        return bad("may not be blank".into());
    }
    if name.contains('/') || name.chars().any(char::is_control) {
        return bad(format!(
            "'{}' may not contain '/' or control characters",
            name.escape_debug()
        ));
    }
    let chars = name.chars().count();
    if chars > MAX_NAME_CHARS {
        return bad(format!(
            "is {chars} characters long; the limit is {MAX_NAME_CHARS}"
        ));
    }
    Ok(())
}

impl CollectionKey {
    /// The names a new collection must satisfy (`check_name`).
    pub fn check_names(&self) -> Result<(), kairos_core::FieldError> {
        check_name(&self.subscription, "subscriptionId")?;
        check_name(&self.resource_group, "resourceGroupName")?;
        check_name(&self.name, "jobCollectionName")
    }
}
