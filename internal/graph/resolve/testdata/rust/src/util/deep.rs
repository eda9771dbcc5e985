pub fn dive() {
    super::helper();
    crate::top();
}
