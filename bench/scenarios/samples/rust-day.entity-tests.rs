
#[test]
fn max_depth_through_entities() {
    // An entity's elements are nested where it is referenced, and count there.
    let data = "\
<!DOCTYPE r [
    <!ENTITY deep '<a><a><a/></a></a>'>
]>
<r>&deep;</r>
";
    let opt = ParsingOptions {
        allow_dtd: true,
        max_depth: 3,
        ..ParsingOptions::default()
    };
    let err = Document::parse_with_options(data, opt).unwrap_err();
    assert_eq!(err, Error::DepthLimitReached(TextPos::new(2, 26)));

    let opt = ParsingOptions {
        allow_dtd: true,
        max_depth: 4,
        ..ParsingOptions::default()
    };
    assert!(Document::parse_with_options(data, opt).is_ok());
}

#[test]
fn nodes_limit_through_entities() {
    let data = "\
<!DOCTYPE r [
    <!ENTITY ten '<b/><b/><b/><b/><b/><b/><b/><b/><b/><b/>'>
]>
<r>&ten;&ten;</r>
";
    let opt = ParsingOptions {
        allow_dtd: true,
        nodes_limit: 15,
        ..ParsingOptions::default()
    };
    let err = Document::parse_with_options(data, opt).unwrap_err();
    assert_eq!(err, Error::NodesLimitReached);
}
