
#[test]
fn error_positions() {
    // Each error that names a position in its message returns the same one from pos().
    let cases = [
        "<e xmlns:xml='http://www.w3.org/'/>",
        "<e xmlns:n='http://www.w3.org/XML/1998/namespace'/>",
        "<e xmlns:n='http://www.w3.org/2000/xmlns/'/>",
        "<xmlns:e/>",
        "<e xmlns:n='a' xmlns:n='b'/>",
        "<e>\n  <n:c/>\n</e>",
        "<e n:a='1'/>",
        "<e>\n  <c></e>",
        "<e>&unknown;</e>",
        "<e>&#x;</e>",
        "<e a='1' a='2'/>",
    ];
    for text in cases {
        let err = Document::parse(text).unwrap_err();
        let at = format!(" at {}", err.pos());
        assert!(
            err.to_string().contains(&at),
            "{:?}: {:?} has pos() {}",
            text,
            err.to_string(),
            err.pos()
        );
    }
}
