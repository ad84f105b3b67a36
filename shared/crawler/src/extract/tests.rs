use super::*;

fn page(html: &str) -> ExtractedPage {
    extract_page(
        html,
        &Url::parse("https://www.shop.example/products/").unwrap(),
    )
}

const SHOP_PAGE: &str = r#"<!doctype html>
<html lang=" en-GB ">
<head>
  <title> Widgets  &amp; Gadgets | Shop </title>
  <meta name="Description" content="  Hand-made widgets.  ">
  <meta name="robots" content="index, follow">
  <script type="application/ld+json">{"@type":"Product","name":"Blue Widget"}</script>
  <style>.x { color: red }</style>
</head>
<body>
  <header><a href="/">Home</a><nav><a href="/about">About us</a></nav></header>
  <nav><ul><li><a href="https://shop.example/pricing">Pricing</a></li></ul></nav>
  <main>
    <header><h1>Blue <em>widgets</em></h1><p>Our best seller</p></header>
    <p>Widgets are <b>hand</b>made in Leeds.</p>
    <script>var tracking = "do not index";</script>
    <aside>Related: gadgets</aside>
    <form><label>Newsletter</label><input name=email><button>Subscribe</button></form>
    <div hidden>Hidden promo</div>
    <div role="navigation">Breadcrumbs</div>
    <h2>Sizes</h2>
    <ul><li>Small</li><li>Large</li></ul>
    <img src="/w.jpg" alt=" A blue   widget ">
    <a href="../cart?item=1#buy"><img src="/c.png" alt="Add to cart"></a>
    <a href="https://partner.example/deal" rel="sponsored nofollow">Partner deal</a>
    <a href="mailto:sales@shop.example">Email us</a>
  </main>
  <footer><p>© Shop Ltd</p><a href="/terms">Terms</a></footer>
</body>
</html>"#;

#[test]
fn extracts_title_description_headings_lang_and_json_ld() {
    let page = page(SHOP_PAGE);
    let content = &page.content;
    assert_eq!(content.url, "https://www.shop.example/products/");
    assert_eq!(content.site, None);
    assert_eq!(content.title, "Widgets & Gadgets | Shop");
    assert_eq!(content.meta_description, "Hand-made widgets.");
    assert_eq!(content.headings, ["Blue widgets", "Sizes"]);
    assert_eq!(content.lang.as_deref(), Some("en-GB"));
    assert_eq!(content.json_ld_names, ["Blue Widget"]);
    assert_eq!(content.image_alts, ["A blue widget", "Add to cart"]);
    assert!(!page.nofollow);
}

#[test]
fn main_text_leaves_out_boilerplate_and_keeps_blocks_apart() {
    let body = page(SHOP_PAGE).content.body_text;
    assert_eq!(body, "Blue widgets\nOur best seller\nWidgets are handmade in Leeds.\nSizes\nSmall\nLarge\nPartner deal Email us");
    for boilerplate in [
        "Home",
        "About us",
        "Pricing",
        "tracking",
        "Related",
        "Newsletter",
        "Subscribe",
        "Hidden promo",
        "Breadcrumbs",
        "© Shop",
        "Terms",
        "color",
    ] {
        assert!(
            !body.contains(boilerplate),
            "{boilerplate} leaked into {body:?}"
        );
    }
}

#[test]
fn anchors_are_internal_link_texts_and_links_are_absolute() {
    let page = page(SHOP_PAGE);
    assert_eq!(
        page.content.anchors,
        ["Home", "About us", "Pricing", "Add to cart", "Terms"]
    );
    let links: Vec<(&str, bool)> = page
        .links
        .iter()
        .map(|l| (l.url.as_str(), l.nofollow))
        .collect();
    assert_eq!(
        links,
        [
            ("https://www.shop.example/", false),
            ("https://www.shop.example/about", false),
            ("https://shop.example/pricing", false),
            ("https://www.shop.example/cart?item=1", false),
            ("https://partner.example/deal", true),
            ("https://www.shop.example/terms", false),
        ]
    );
}

#[test]
fn without_main_articles_or_body_are_used() {
    let html = "<body><nav>Menu</nav><article><header><h2>Post</h2></header><p>Text one</p><footer>By Ann</footer><article><p>A comment</p></article></article><div>Sidebar-ish div</div><article><p>Text two</p></article></body>";
    assert_eq!(
        page(html).content.body_text,
        "Post\nText one\nBy Ann\nA comment\nText two"
    );
    let html =
        "<body><header>Logo</header><div><p>Plain page</p></div><footer>Foot</footer></body>";
    assert_eq!(page(html).content.body_text, "Plain page");
}

#[test]
fn malformed_markup_is_extracted_like_a_browser_would() {
    let html = "<html><head><title>Broken<body><h1>Unclosed heading<p>Para <b>bold <i>both</b> italic</p></div></span><p>Next & last <3 <img alt=\"x\"<p>tail";
    let page = page(html);
    // An unclosed <title> swallows the rest as text, as in browsers.
    assert!(page.content.title.starts_with("Broken"));
    let html = "<h1>Unclosed heading<h2>Sub</h2><p>Para <b>bold <i>both</b> italic</p></div></span><p>Next & last <3</p><table><td>cell</table><p>tail";
    let page = extract_page(html, &Url::parse("https://shop.example/").unwrap());
    assert_eq!(page.content.headings, ["Unclosed heading", "Sub"]);
    assert!(
        page.content.body_text.contains("Para bold both italic"),
        "{}",
        page.content.body_text
    );
    assert!(page.content.body_text.contains("Next & last <3"));
    assert!(page.content.body_text.ends_with("cell\ntail"));
}

#[test]
fn deeply_nested_markup_is_cut_off_and_parsed_quickly() {
    // Unguarded, the parser needs minutes for a body-cap-sized page like this.
    let html = format!(
        "<h1>Kept</h1><p>before</p>{}deep text{}",
        "<div><span>".repeat(100_000),
        "</span></div>".repeat(100_000)
    );
    let started = std::time::Instant::now();
    let page = page(&html);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(page.content.headings, ["Kept"]);
    assert!(page.content.body_text.starts_with("Kept\nbefore"));
    assert!(
        !page.content.body_text.contains("deep text"),
        "the page is read only up to the depth cap"
    );
}

#[test]
fn many_links_are_deduplicated_in_linear_time() {
    let html: String = (0..100_000)
        .map(|i| format!("<a href=/p{}>Page {}</a>", i % 50_000, i % 50_000))
        .collect();
    let started = std::time::Instant::now();
    let page = page(&html);
    assert_eq!(page.links.len(), 50_000);
    assert_eq!(page.content.anchors.len(), 50_000);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn base_href_and_meta_robots_nofollow() {
    let html = r#"<head><base href="https://cdn.shop.example/docs/"><meta name="ROBOTS" content="noindex, NoFollow"></head>
        <a href="guide">Guide</a><a href="javascript:void(0)">JS</a><a href="">Self</a><a href=" //other.example/x ">Other</a>"#;
    let page = page(html);
    assert!(page.nofollow);
    let links: Vec<&str> = page.links.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(
        links,
        [
            "https://cdn.shop.example/docs/guide",
            "https://other.example/x"
        ]
    );
    // cdn.shop.example is another host, so its text is not an internal anchor.
    assert!(page.content.anchors.is_empty());
}

#[test]
fn empty_or_binary_garbage_input_gives_empty_fields() {
    let page = page("");
    assert_eq!(page.content.title, "");
    assert!(page.links.is_empty());
    let garbage =
        String::from_utf8_lossy(&[0u8, 159, 146, 150, 255, b'<', b'a', 0, b'>']).into_owned();
    let _ = extract_page(&garbage, &Url::parse("https://shop.example/").unwrap());
}

#[test]
fn a_line_break_or_block_in_a_heading_separates_its_words() {
    let page = page(
        "<h1>MIAMI'S<br/>STANDARD<br>OF DETAIL</h1><h2>Roof<div>Repair</div></h2>\
         <h2>Gut<wbr>ter <span>Cleaning</span></h2><p><a href=\"/a\">Drain<br>Jetting</a></p>\
         <h2>Process Server in<span class=ghost>Fort Lauderdale</span></h2>",
    );
    assert_eq!(
        page.content.headings,
        [
            "MIAMI'S STANDARD OF DETAIL",
            "Roof Repair",
            "Gutter Cleaning",
            "Process Server in Fort Lauderdale"
        ]
    );
    assert_eq!(page.content.anchors, ["Drain Jetting"]);
}

#[test]
fn categories_are_read_from_json_ld_breadcrumbs_and_products() {
    let html = r#"<html><head><title>Autumn Fox | Flag Shop</title>
      <script type="application/ld+json">{"@type":"BreadcrumbList","itemListElement":[
        {"@type":"ListItem","position":1,"name":"Home"},
        {"@type":"ListItem","position":2,"name":"Garden Flags"}]}</script>
      <script type="application/ld+json">{"@type":"Product","name":"Autumn Fox","category":"Garden Flags"}</script>
    </head><body><h1>Autumn Fox</h1></body></html>"#;
    let content = page(html).content;
    assert_eq!(content.categories, ["Home", "Garden Flags"]);
    assert_eq!(content.json_ld_names, ["Autumn Fox"]);
    assert!(page(SHOP_PAGE).content.categories.is_empty());
}

#[test]
fn links_are_read_with_the_heading_they_sit_under() {
    let html = r#"<html><body>
      <nav><a href="/">Home</a><a href="/collections/garden-flags">Garden Flags</a></nav>
      <h1>Shop</h1>
      <h2>Garden Flags</h2>
      <div class="card"><h3>Autumn Fox</h3><a href="/products/autumn-fox">Autumn Fox</a></div>
      <a href="/products/winter-owl"><h3>Winter Owl</h3></a>
      <h2>House Flags</h2>
      <a href="/products/barn-owl">Barn Owl</a>
      <a href="https://elsewhere.example/flag">Partner Flag</a>
      <a href="/products/barn-owl">Barn Owl</a>
    </body></html>"#;
    let links: Vec<(String, String)> = page(html)
        .content
        .headed_links
        .into_iter()
        .map(|l| (l.heading, l.text))
        .collect();
    let pair = |h: &str, t: &str| (h.to_string(), t.to_string());
    assert_eq!(
        links,
        [
            pair("Garden Flags", "Autumn Fox"),
            pair("Garden Flags", "Winter Owl"),
            pair("House Flags", "Barn Owl"),
        ]
    );
}

#[test]
fn a_shops_page_is_told_by_its_markup_or_its_cart_in_any_language() {
    let sells = |body: &str| {
        page(&format!(
            "<html><head></head><body><h1>Autumn Fox</h1>{body}</body></html>"
        ))
        .content
        .sells
    };
    assert!(sells(
        r#"<button class="snipcart-add-item" data-item-id="fox">Buy</button>"#
    ));
    assert!(sells(r#"<a href="/warenkorb">Zum Korb</a>"#));
    assert!(sells(
        r#"<form action="/cart/add"><input name="quantity"></form>"#
    ));
    assert!(sells(
        r#"<div itemscope itemtype="https://schema.org/Product"><span itemprop="name">Fox</span></div>"#
    ));
    assert!(sells(
        r#"<script type="application/ld+json">{"@graph":[{"@type":"WebPage"},{"@type":"Product","name":"Fox"}]}</script>"#
    ));
    // A roofer listing its services as offers, with prices, sells nothing here.
    assert!(!sells(
        r#"<script type="application/ld+json">{"@type":"OfferCatalog","itemListElement":[{"@type":"Offer","itemOffered":{"@type":"Service","name":"Roof repair"}}]}</script><span itemprop="price">99</span>"#
    ));
    assert!(
        page(
            r#"<html><head><meta property="og:type" content="product"></head><body></body></html>"#
        )
        .content
        .sells
    );
    // A service page, even with prices, sells nothing here; "cartography" is no cart.
    assert!(!sells(
        r#"<p>Roof inspection from $99.</p><a class="btn-quote" href="/contact">Get a quote</a><a href="/cartography">Maps</a>"#
    ));
}

#[test]
fn links_only_in_the_fine_print_are_told_apart() {
    let html = r#"<html><body>
      <nav><a href="/leistungen">Leistungen</a><a href="/kontakt">Kontakt</a></nav>
      <main><h1>Metzgerei</h1><a href="/partyservice">Partyservice</a></main>
      <footer>
        <div class="cols"><a href="/rind">Rind</a><a href="/schwein">Schwein</a>
          <a href="/lamm">Lamm</a><a href="/wurst">Wurst</a><a href="/kaese">Käse</a>
          <a href="/fisch">Fisch</a><a href="/salat">Salat</a></div>
        <div class="footer__bottom"><p>&copy; 2025 Metzgerei</p>
          <a href="/impressum">Impressum</a> <a href="/kontakt">Kontakt</a>
          <a href="/datenschutz">Datenschutz</a></div>
      </footer>
    </body></html>"#;
    let content = page(html).content;
    assert_eq!(content.fine_print_anchors, ["Impressum", "Datenschutz"]);
    assert!(content.anchors.contains(&"Impressum".to_string()));
    assert!(content.anchors.contains(&"Rind".to_string()));
}
