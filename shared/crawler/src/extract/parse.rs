//! HTML parsing that a hostile page cannot stall.
//!
//! The HTML parser scans its stack of open elements for many tags, so its time grows with the
//! square of the nesting depth: 40,000 nested `<div>`s (440 KB) take seconds, and misnested
//! formatting tags (`<b><i><u>x</b>` again and again) make the parser itself reopen elements
//! until a 2 MiB page takes over a minute. Browsers cap the depth of the tree they build; this
//! parser watches the depth of the tree as it is built and stops reading the page once an
//! element would sit deeper than [`MAX_DEPTH`], keeping everything before that point.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

use ego_tree::NodeId;
use html5ever::tendril::{StrTendril, TendrilSink};
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::{Attribute, QualName};
use scraper::{Html, HtmlTreeSink};

/// Real pages stay far below this (browsers cap at 512 too); it bounds the parser's work per
/// tag, which keeps parsing linear in the page size.
pub(crate) const MAX_DEPTH: usize = 512;

/// How much of the page the parser reads between two depth checks.
const CHUNK_BYTES: usize = 16 * 1024;

/// Parses a document like [`Html::parse_document`], cut off where it nests too deep.
pub(crate) fn parse_document(html: &str) -> Html {
    let sink = DepthGuard {
        inner: HtmlTreeSink::new(Html::new_document()),
        depths: RefCell::default(),
        too_deep: Cell::new(false),
    };
    let mut parser = html5ever::driver::parse_document(sink, Default::default());
    let mut start = 0;
    while start < html.len() {
        let mut end = (start + CHUNK_BYTES).min(html.len());
        while !html.is_char_boundary(end) {
            end += 1;
        }
        parser.process(StrTendril::from_slice(&html[start..end]));
        if parser.tokenizer.sink.sink.too_deep.get() {
            break;
        }
        start = end;
    }
    parser.finish()
}

/// Scraper's tree sink, plus the depth of every element appended, measured from its parent.
/// Moves done by the parser's error recovery are not tracked exactly; the depths stay close
/// enough to catch runaway nesting, which only comes from appending child after child.
struct DepthGuard {
    inner: HtmlTreeSink,
    depths: RefCell<HashMap<NodeId, usize>>,
    too_deep: Cell<bool>,
}

impl DepthGuard {
    fn record(&self, node: &NodeOrText<NodeId>, depth: usize) {
        if let NodeOrText::AppendNode(id) = node {
            self.depths.borrow_mut().insert(*id, depth);
            if depth > MAX_DEPTH {
                self.too_deep.set(true);
            }
        }
    }

    fn depth_of(&self, id: &NodeId) -> usize {
        self.depths.borrow().get(id).copied().unwrap_or(0)
    }
}

impl TreeSink for DepthGuard {
    type Handle = NodeId;
    type Output = Html;
    type ElemName<'a> = <HtmlTreeSink as TreeSink>::ElemName<'a>;

    fn finish(self) -> Html {
        self.inner.finish()
    }

    fn parse_error(&self, msg: Cow<'static, str>) {
        self.inner.parse_error(msg)
    }

    fn get_document(&self) -> NodeId {
        self.inner.get_document()
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> Self::ElemName<'a> {
        self.inner.elem_name(target)
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        self.inner.create_element(name, attrs, flags)
    }

    fn create_comment(&self, text: StrTendril) -> NodeId {
        self.inner.create_comment(text)
    }

    fn create_pi(&self, target: StrTendril, data: StrTendril) -> NodeId {
        self.inner.create_pi(target, data)
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        self.record(&child, self.depth_of(parent) + 1);
        self.inner.append(parent, child)
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        self.record(
            &child,
            self.depth_of(element).max(self.depth_of(prev_element) + 1),
        );
        self.inner
            .append_based_on_parent_node(element, prev_element, child)
    }

    fn append_doctype_to_document(
        &self,
        name: StrTendril,
        public_id: StrTendril,
        system_id: StrTendril,
    ) {
        self.inner
            .append_doctype_to_document(name, public_id, system_id)
    }

    fn mark_script_already_started(&self, node: &NodeId) {
        self.inner.mark_script_already_started(node)
    }

    fn pop(&self, node: &NodeId) {
        self.inner.pop(node)
    }

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        self.inner.get_template_contents(target)
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        self.inner.same_node(x, y)
    }

    fn set_quirks_mode(&self, mode: QuirksMode) {
        self.inner.set_quirks_mode(mode)
    }

    fn append_before_sibling(&self, sibling: &NodeId, new_node: NodeOrText<NodeId>) {
        self.record(&new_node, self.depth_of(sibling));
        self.inner.append_before_sibling(sibling, new_node)
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        self.inner.add_attrs_if_missing(target, attrs)
    }

    fn associate_with_form(
        &self,
        target: &NodeId,
        form: &NodeId,
        nodes: (&NodeId, Option<&NodeId>),
    ) {
        self.inner.associate_with_form(target, form, nodes)
    }

    fn remove_from_parent(&self, target: &NodeId) {
        self.inner.remove_from_parent(target)
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        self.inner.reparent_children(node, new_parent)
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &NodeId) -> bool {
        self.inner
            .is_mathml_annotation_xml_integration_point(handle)
    }

    fn set_current_line(&self, line_number: u64) {
        self.inner.set_current_line(line_number)
    }

    fn allow_declarative_shadow_roots(&self, intended_parent: &NodeId) -> bool {
        self.inner.allow_declarative_shadow_roots(intended_parent)
    }

    fn attach_declarative_shadow(
        &self,
        location: &NodeId,
        template: &NodeId,
        attrs: &[Attribute],
    ) -> bool {
        self.inner
            .attach_declarative_shadow(location, template, attrs)
    }

    fn maybe_clone_an_option_into_selectedcontent(&self, option: &NodeId) {
        self.inner
            .maybe_clone_an_option_into_selectedcontent(option)
    }
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use scraper::Selector;

    use super::*;

    fn text(html: &Html) -> String {
        html.root_element().text().collect()
    }

    #[test]
    fn parses_ordinary_pages_like_scraper() {
        let page = "<!doctype html><html lang=en><head><title>T</title></head><body><div><p>a<p>b</div>\
                    <table><td>c</table><b>d<i>e</b>f</i><svg><path/></svg><template><p>t</p></template>é</body></html>";
        let guarded = parse_document(page);
        let reference = Html::parse_document(page);
        assert_eq!(
            guarded.root_element().html(),
            reference.root_element().html()
        );
        // Chunk boundaries inside multi-byte characters and tags change nothing either.
        let long = format!("<p>{}</p><h1>end</h1>", "é<b>x</b>".repeat(10_000));
        assert_eq!(
            parse_document(&long).root_element().html(),
            Html::parse_document(&long).root_element().html()
        );
    }

    #[test]
    fn runaway_nesting_is_cut_off_quickly() {
        let cap = 2 * 1024 * 1024;
        let patterns = [
            "<div>",
            "<div><span>",
            "<ul><li>",
            "<b><i><u><s><em>x</b>",
            "<a href=x><b>x</a>",
            "<font color=red>",
        ];
        for pattern in patterns {
            let html = format!("<p>kept</p>{}", pattern.repeat(cap / pattern.len()));
            let started = Instant::now();
            let parsed = parse_document(&html);
            // Unguarded, the formatting tags alone take over a minute (release build).
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "{pattern}: {:?}",
                started.elapsed()
            );
            assert!(text(&parsed).starts_with("kept"), "{pattern}");
            let depth = parsed
                .select(&Selector::parse("*").unwrap())
                .map(|e| e.ancestors().count())
                .max()
                .unwrap();
            assert!(depth <= MAX_DEPTH + CHUNK_BYTES, "{pattern}: depth {depth}");
        }
    }
}
