pub fn run(_argv: &[String]) -> Result<(), String> {
    Err("todo".into())
}
