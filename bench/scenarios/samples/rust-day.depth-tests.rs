
#[test]
fn max_depth_01() {
    let opt = ParsingOptions {
        max_depth: 3,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options("<a><b><c/></b></a>", opt).unwrap();
    assert_eq!(doc.descendants().filter(|n| n.is_element()).count(), 3);
}

#[test]
fn max_depth_02() {
    let opt = ParsingOptions {
        max_depth: 2,
        ..ParsingOptions::default()
    };
    let err = Document::parse_with_options("<a><b><c/></b></a>", opt).unwrap_err();
    assert_eq!(err, Error::DepthLimitReached(TextPos::new(1, 7)));
    assert_eq!(err.to_string(), "elements nested too deep at 1:7");
}

#[test]
fn max_depth_03() {
    // Siblings, text and comments do not add depth.
    let opt = ParsingOptions {
        max_depth: 2,
        ..ParsingOptions::default()
    };
    let data = "<a><b/><b>text</b><b><!-- c --></b></a>";
    let doc = Document::parse_with_options(data, opt).unwrap();
    assert_eq!(doc.root_element().children().count(), 3);
}

#[test]
fn max_depth_04() {
    let opt = ParsingOptions {
        max_depth: 1,
        ..ParsingOptions::default()
    };
    let data = "<a>\n  <b>\n    <c></c>\n  </b>\n</a>";
    let err = Document::parse_with_options(data, opt).unwrap_err();
    assert_eq!(err, Error::DepthLimitReached(TextPos::new(2, 3)));
}
