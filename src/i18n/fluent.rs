//! The Fluent files of the interface (`assets/i18n/*.ftl`), embedded in the binary and parsed
//! once, on first use: one bundle per language, and the text of every message without variables
//! formatted at load.

use super::Lang;
use fluent_bundle::FluentResource;
use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentValue};
use fluent_syntax::ast;
use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, LazyLock};

/// The source of each language's messages.
fn source(lang: Lang) -> &'static str {
    match lang {
        Lang::En => include_str!("../../assets/i18n/en.ftl"),
        Lang::Vi => include_str!("../../assets/i18n/vi.ftl"),
    }
}

/// One language's messages.
pub(super) struct Messages {
    resource: Arc<FluentResource>,
    bundle: FluentBundle<Arc<FluentResource>>,
    /// The text of each message that has no variables.
    plain: HashMap<String, String>,
    /// The parser's and the bundle's complaints about the file.
    errors: Vec<String>,
}

static MESSAGES: LazyLock<[Messages; 2]> = LazyLock::new(|| Lang::ALL.map(Messages::load));

impl Messages {
    fn load(lang: Lang) -> Messages {
        let mut errors = Vec::new();
        // A file with errors keeps the messages that parse; the texts' test reports the rest.
        let resource = FluentResource::try_new(source(lang).to_string()).unwrap_or_else(|(resource, e)| {
            errors.extend(e.iter().map(|e| format!("{e:?}")));
            resource
        });
        let resource = Arc::new(resource);
        let locale = lang.code().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![locale]);
        // egui draws the text as it is: no Unicode isolation marks around the variables.
        bundle.set_use_isolating(false);
        if let Err(e) = bundle.add_resource(Arc::clone(&resource)) {
            errors.extend(e.iter().map(|e| format!("{e:?}")));
        }
        let mut plain = HashMap::new();
        for message in messages(&resource) {
            if let Some(pattern) = &message.value {
                let mut problems = Vec::new();
                let text = bundle.format_pattern(pattern, None, &mut problems);
                if problems.is_empty() {
                    plain.insert(message.id.name.to_string(), text.into_owned());
                }
            }
        }
        Messages { resource, bundle, plain, errors }
    }

    fn of(lang: Lang) -> &'static Messages {
        &MESSAGES[lang as usize]
    }
}

fn messages(resource: &FluentResource) -> impl Iterator<Item = &ast::Message<&str>> {
    resource.entries().filter_map(|entry| match entry {
        ast::Entry::Message(message) => Some(message),
        _ => None,
    })
}

/// The text of a message without variables, in `lang`, else in English.
pub(super) fn plain(lang: Lang, id: &str) -> Option<&'static str> {
    let text = |lang| Messages::of(lang).plain.get(id).map(String::as_str);
    text(lang).or_else(|| text(Lang::En))
}

/// A message formatted with `args`, in `lang`, else in English.
pub(super) fn format<'a>(
    lang: Lang,
    id: &str,
    args: impl IntoIterator<Item = (&'static str, FluentValue<'a>)>,
) -> Option<String> {
    let found = |lang| {
        let messages = Messages::of(lang);
        messages.bundle.get_message(id)?.value().map(|pattern| (messages, pattern))
    };
    let (messages, pattern) = found(lang).or_else(|| found(Lang::En))?;
    // The bundle lives for the program: the values are copied to be formatted with it.
    let args: FluentArgs<'static> =
        args.into_iter().map(|(name, value)| (name, value.into_owned())).collect();
    let mut problems = Vec::new();
    let text = messages.bundle.format_pattern(pattern, Some(&args), &mut problems).into_owned();
    debug_assert!(problems.is_empty(), "formatting {id}: {problems:?}");
    Some(text)
}

/// Every message id of a language's file, in the file's order.
pub fn ids(lang: Lang) -> Vec<&'static str> {
    messages(&Messages::of(lang).resource).map(|m| m.id.name).collect()
}

/// The parser's and the bundle's errors in a language's file (none in a good file).
pub fn errors(lang: Lang) -> &'static [String] {
    &Messages::of(lang).errors
}

/// The variables a message uses (`{ $side }` gives `side`), or `None` if the file lacks it.
pub fn variables(lang: Lang, id: &str) -> Option<BTreeSet<&'static str>> {
    let message = messages(&Messages::of(lang).resource).find(|m| m.id.name == id)?;
    let mut names = BTreeSet::new();
    if let Some(pattern) = &message.value {
        pattern_variables(pattern, &mut names);
    }
    Some(names)
}

fn pattern_variables(pattern: &ast::Pattern<&'static str>, names: &mut BTreeSet<&'static str>) {
    for element in &pattern.elements {
        if let ast::PatternElement::Placeable { expression } = element {
            expression_variables(expression, names);
        }
    }
}

fn expression_variables(expression: &ast::Expression<&'static str>, names: &mut BTreeSet<&'static str>) {
    match expression {
        ast::Expression::Inline(inline) => inline_variables(inline, names),
        ast::Expression::Select { selector, variants } => {
            inline_variables(selector, names);
            for variant in variants {
                pattern_variables(&variant.value, names);
            }
        }
    }
}

fn inline_variables(inline: &ast::InlineExpression<&'static str>, names: &mut BTreeSet<&'static str>) {
    match inline {
        ast::InlineExpression::VariableReference { id } => {
            names.insert(id.name);
        }
        ast::InlineExpression::Placeable { expression } => expression_variables(expression, names),
        ast::InlineExpression::FunctionReference { arguments, .. }
        | ast::InlineExpression::TermReference { arguments: Some(arguments), .. } => {
            for argument in arguments.positional.iter().chain(arguments.named.iter().map(|n| &n.value)) {
                inline_variables(argument, names);
            }
        }
        _ => {}
    }
}

/// A message's text with each placeable written `{}` (as the texts' tests read it), or `None`
/// if the file lacks it.
pub fn template(lang: Lang, id: &str) -> Option<String> {
    let message = messages(&Messages::of(lang).resource).find(|m| m.id.name == id)?;
    let mut text = String::new();
    for element in message.value.iter().flat_map(|p| &p.elements) {
        match element {
            ast::PatternElement::TextElement { value } => text.push_str(value),
            ast::PatternElement::Placeable { .. } => text.push_str("{}"),
        }
    }
    Some(text)
}
