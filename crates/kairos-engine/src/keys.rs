//! Names of collections and jobs, and their ARM resource ids.

/// A job collection: subscription and resource group only namespace it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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
