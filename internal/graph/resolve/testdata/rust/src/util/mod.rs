pub mod deep;

pub fn helper() {}

pub struct Other;

impl Other {
    pub fn close(&self) {}
}
