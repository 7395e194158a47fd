//! What operations return besides the resource: whether a PUT created it, whether a list has more.

/// The result of a PUT: the resource and whether it was created (201) or replaced (200).
#[derive(Debug, Clone)]
pub struct Put<T> {
    pub value: T,
    pub created: bool,
}

/// One page of a list.
#[derive(Debug, Clone)]
pub struct Page<T> {
    pub items: Vec<T>,
    /// More items follow this page.
    pub more: bool,
}
