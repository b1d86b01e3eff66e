"""Methods and benchmarks, each with a role (``proposed`` or ``used``) and its evidence.

The component ``paperkg_entities`` finds names three ways and keeps the evidence of each:

1. **Proposal rules** (role ``proposed``): "we propose/introduce/present X", "X, a novel
   framework", "a method called/dubbed/named X", an abbreviation defined right after a proposal
   verb ("we propose Strategic Prior-data Fitted Network (SPN)"), emphasised coined names
   (``**Persona-Pruner**``, ``\\textbf{...}``, ``*PolyILR*``), and "Name: subtitle" at the start.
   Also: names written with inline math after a naming cue ("PILOT$^+$", "$S^3$"), lists of names
   after a plural head or a naming verb ("two algorithms, X and Y", "which we refer to as x and
   y"), a modifier in front of a known method right after the verb ("we propose momentum mirror
   descent"), "a novel X algorithm is proposed", "the new X estimator", and coined variants of
   the paper's own name ("VR-A-CODER" beside "A-CODER", "JAW-KLOO" beside "JAW-FCS").
2. **Shape rules** that need no gazetteer (role ``used``): "X benchmark/dataset/suite", lists
   "on X, Y, and Z datasets", "datasets such as X and Y", "X algorithm/model/framework",
   names ending in -Net/-Former/-GAN/-BERT (methods) or -Bench/-QA/-Eval (benchmarks), and
   abbreviations whose long form ends in a method or benchmark head noun
   ("Gated Linear Unit (GLU)").
3. **The gazetteer** (:mod:`extractors.gazetteer`), matched with two ``PhraseMatcher`` s.

Precision guards: a single capitalised common English word of the abstracts ("Features",
"Parts") is not a coined name; an acronym the abstract expands otherwise is not the gazetteer's
("SDS" = switching dynamical systems); generic sources (Wikipedia, Twitter) are datasets only
before a data head noun ("Wikipedia corpus"); a name described as existing work ("a recently
proposed algorithm called X", "X, a well-known language", "Prior work ... called X", "which they
dubbed X") is used, not proposed; an emphasised name after "on/from (the)" is a test bed or a
source; the acronym of a field ("Deep Metric Learning (DML)") before a head noun is no name.

Rules generalised from an independently annotated split (round 2) rather than from single
misses: emphasis also marks terms, so an emphasised phenomenon or setting ("Catastrophic
Forgetting", "label shift"), someone's product ("NVIDIA's X") or a lone participle is no proposed
name; a proposed name before a data head noun ("the X dataset", "(ABC) corpus") is a benchmark;
"our X (ABC)", a quoted Title-Case long form in the authors' sentence, "by designing a X (ABC)",
"and name it X", "a ... encoding, X, to ...", "a X variant", "an X algorithm is also proposed";
a relative clause, "using" or an earlier definition between the verb and a long form makes it
someone else's; a Title-Case description named later in its sentence ("an X Y method, dubbed Z")
is not a used method; a generic Title-Case tail ("ALFRED Household Tasks") is trimmed.

Round 3, causes of the errors on a fresh split (test5) that recur on unseen text: a name the
abstract gives a metric ("an automatic metric, X, that ...") is no entity, whichever rule found
it; an emphasised notice label ("**WARNING**: This paper ...") is no name; a name right after a
proposal's head noun may be two all-capitals words and end before "based on/using/whose"; names
listed after a colon that closes a proposal's plural head ("two frameworks for X: A and B.");
one coined word after a singular data head ("the dataset SyGuS."); a coined name is cut before
"with/on <another name>"; "+" superscripts and math fonts inside names ("GraphLite$^+$",
"$\\mathbb{D}^2$ Pruning"); a version after a known model ("PaLM 2"); capitalised words before a
known name mid-sentence ("Erased Stable Diffusion") and mechanism modifiers before a known
algorithm ("linearized Laplace approximation", "implicit OMD") name variants; a defined
Title-Case long form ending in a known benchmark, or coordinated with a defined benchmark, is a
benchmark; a known name the authors give with "we call/dub" is theirs.

Round 4, mechanisms checked on unlabeled abstracts (each change read name by name on 3,542
abstracts outside the gold) rather than fitted to a split: a coined word between a proposal verb
and a head noun ("we propose the X model") unless the abstract used or defined it before; "we
have developed", "this paper has introduced" and one -ly adverb before the verb ("we publicly
release"); the title's one-word name written otherwise in the abstract ("Crystal: ..." and
"CRYSTAL", "Zephyr: ..." and "Zephyr-7B"), and a rare known word opening the title ("Mamba: ...")
is the paper's own like a coined one; an English word in capitals is a name after a naming cue
("named TEST"). Round 7: a known family with its version or size right after a proposal verb is
the paper's own release ("We present OLMo 2, ...", "we release Mistral 7B"), as is a known name
defined after a proposal verb and a head noun in apposition ("we develop a challenging benchmark,
X (ABC)"); a stoplisted acronym right after a proposal verb is the paper's own name there ("we
introduce SAT, a ... dataset"). Precision: one plain word after "we call" is a term unless quoted; "a new
<modifier> <known method> method" is a description, not a name; a long form defined right after
"in" is the setting of an unnamed proposal; "the Hedge algorithm" is "Hedge" when the bare name
is an entry of its own; no span crosses the title/abstract break. Round 8: a proposed name is typed
by what its defining sentence says it is (a head noun right after it, its appositive, or a head
noun just before it; a tool-like head whose purpose is evaluation, "a framework for evaluating
X", names a benchmark; a name ending in "Benchmark" is one), whichever rule found it. The rules read
through "{\\sc X}", "_X_" and "__X__" (a span covers the underscores, word characters to the
annotators); italics ("_X_", "{\\em X}") mark a name only for one coined word or after a proposal
verb, and an emphasised example ("such as _X_", "exemplified by __X__") or notion ("the concept of
X") is none. Names with math or symbols: a Greek letter's "$\\" is inside the span and the name reads
as the letter ("$\\omega$GNN" is "ωGNN"); "our X and Y perform ..." gives two own names; a "+" or a
symbol part after the paper's own name is its variant ("MUSE+", "SequenceMatch-χ2"). A lower-case
name right after a proposal verb and defined by an indefinite appositive with a head noun is the
paper's own ("We introduce collider regression, a framework to ..."; not "noise, a simple technique":
one common word, nor "X, a standard technique": someone else's). A name may follow its data head
after a dash ("a ... dataset - 3D-MoIT", "a new dataset – FEEDBACK COLLECTION –"), a colon list may
follow a second verb ("We collected and annotated two ... datasets: A and B") and end in a
participle clause, "we collected" is a proposal verb, and a coined name may start with a digit
prefix ("2D-Shapley", "3D-MoLM"; not "3D" or "2D-space"). Round 9: "we build on/upon X" is no
proposal; an emphasised Latin phrase ("*a posteriori*") or description ("a *novel ... algorithm*") and a
named phenomenon ("The Reversal Curse", "... Paradox") are no names; a version, year or size after a
known benchmark is in its name ("MS COCO 2014-30k", "ImageNet 32x32", "WMT'21") and a split suffix is
not ("miniF2F-test" is a mention of miniF2F); a Title-Case long form or a name right after "a novel",
"a new" or "the proposed" is the paper's own ("via a novel ... Pyramid Fusion network", "the proposed
SHB-DW algorithm"; not the kind in "ALAM, a novel ACT framework"), and so is a definition followed by
", a new/novel ..." ("the Open License Corpus (OLC), a new corpus we curate") or introduced as "a
framework / the mechanism of X (ABC)". Round 10: the authors naming a known name in the naming
clause itself ("The agent, which we refer to as Gato") or after a proposal verb and "a new ... <head
noun>" ("we release a new ... dataset DFN-2B") make it theirs; a bare lower-case name of two to four
words right after "we propose/introduce" ends its noun phrase ("we propose velocity parameterization
and ..."; not "we propose simple modifications"); an emphasised phrase in apposition to "a new ..."
or named after a method head noun ("a new family of losses, *X*", "Our approach - called a *X*") is
the paper's own, not when an assumption or a measure is named. After an unnamed proposal, only the
first definition (and those coordinated with it or named as its components) is its name, and not the
object of a purpose ("a new method, dubbed X (ABC), to perform Y (B)"); a name cited in brackets
("[Kakade et al. 2011]"), "previously proposed", "the recently-proposed X (ABC)" or taken by the
clause's verb ("this paper adopts ... termed X", "we analyze an algorithm called X") is used. A
definition after "our <head noun>," ("For our model, X (ABC)") is the paper's own, and so is a known
name right after "we propose/introduce" with a relative clause ("we propose MONet, which ..."). A
Title-Case long form that ends like a problem, setting or paradigm ("... Bandits (DLB)", "... Problem",
"... Learning") is not typed a proposed method by a nearby unnamed proposal alone. "established",
"unveiled" and "open-sourced" are proposal verbs ("we established the first benchmark, X").

Round 11, error classes checked on dev, silver and unlabeled text rather than single misses: a
definition that opens an item of a list of the parts of the authors' system ("X consists of two
components: a scale meta-learner (SML) and ...", "Our method comprises (1) a ... (CTM)") names one
of their own components, unless the subject is described as others' ("existing pipelines consist
of") or the items are the terms of an objective; a name whose last word makes it a coefficient, a
property or a problem ("... Decoupling Coefficient (MADC)", "*Unique Disparity*", "... Bin Packing
Problem") is neither type, nor is its short form.

Round 12, classes of the paper's own names missed out of sample (test20): a math name may carry a
text font ("$k\\text{NN-ECD}$" after "we introduce a novel approach,"); an English word spelt in a
case of its own ("MODeL", "STaR", not "AutoEncoder" or "mAP") is coined, not the stop word it spells;
a plural acronym of the own name has variants of its singular ("MOGFNs" and "MOGFN-PC"); a known
name after "called"/"named" and the authors' own head noun ("a new dataset called X", "Our method
called X") is theirs; so is a coined name after "our" and modifiers before a head noun ("our long
instruction-following X dataset", not "our retrieval-augmented X model"), and a known name grown to
a new hyphenated word after "the proposed" ("the proposed HT-perceptron layer"); a decimal version
after a coined name right after a proposal verb is part of it ("we introduce EigenPro 3.0, an ...").

The rules run on a markup-free view of the text (:func:`extractors.abbreviations.clean_view`)
with precompiled regular expressions; offsets are mapped back to the original text. A name a
rule found is then found again wherever it recurs in the document (rule ``repeat``), and a
name proposed once is proposed for the whole paper. Metric names (the gazetteer's METRIC list),
generic names ("LLM", "GPU"), LaTeX fragments and runs of more than 12 capitals are never
names.

Results: ``doc.spans["paperkg_entities"]`` with labels ``METHOD`` / ``BENCHMARK`` and the span
extensions ``paperkg_role``, ``paperkg_canonical``, ``paperkg_rule`` and ``paperkg_offsets``
(the exact character offsets, which can be narrower than the token-aligned span when markup
is glued to a name). :func:`entities_from_doc` turns them into :class:`kg.records.Entity`.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from spacy.attrs import IDX
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.tokens import Doc, Span

from extractors import BENCHMARK, METHOD
from extractors.abbreviations import (GREEK_LETTERS, CleanView, Definition, best_long_form, clean_view,
                                      definitions_of, doc_text, doc_view, emphasized_ranges, expand_to_tokens,
                                      find_definitions)
from extractors.gazetteer import GREEK_NAMES, Gazetteer, case_shape, entity_key, load_gazetteer, phrase_patterns
from extractors.makers import make_entity, make_mention
from kg.records import Entity, Mention
from kg.schema import EntityType, Role

SPANS_KEY = "paperkg_entities"
#: ``doc.user_data`` key: coined names the rules saw but did not type (for corpus consolidation).
CANDIDATES_KEY = "paperkg_candidates"

PROPOSED = "proposed"
USED = "used"

#: ``doc.user_data`` key: {"start_char:end_char:label": [role, canonical, rule, [start, end]]}
#: (string keys and lists, so that msgpack serialisation round-trips it).
#: One plain dict per document: cheaper than four stored extension values per span, and it
#: survives ``Doc`` serialisation (``nlp.pipe(..., n_process=2)``).
INFO_KEY = "paperkg_entity_info"
#: ``doc.user_data`` key: {spans_key: [(start_char, end_char, label), ...]}, the spans that
#: ``doc.spans[spans_key]`` would hold, in its order, instead of them, while the component's
#: ``make_spans`` is False (see :meth:`EntityRecognizer.__call__`).
PLAIN_SPANS_KEY = "paperkg_entity_spans"
_INFO_FIELDS = ("paperkg_role", "paperkg_canonical", "paperkg_rule", "paperkg_offsets")


def _info_getter(i: int) -> Callable[[Span], Any]:
    def get(span: Span) -> Any:
        info = span.doc.user_data.get(INFO_KEY)
        if not info:
            return None
        v = info.get(f"{span.start_char}:{span.end_char}:{span.label_}")
        if v is None:
            return None
        return tuple(v[i]) if i == 3 else v[i]

    return get


for _i, _name in enumerate(_INFO_FIELDS):
    if not Span.has_extension(_name):
        Span.set_extension(_name, getter=_info_getter(_i))

# --------------------------------------------------------------------------- patterns
# One "word" of a name: letters/digits, hyphen-joined parts, version dots ("Qwen2.5-7B").
# Possessive quantifiers keep every attempt linear in the word; names start at a word start.
_W = r"(?<![\w.'’-])[A-Za-z0-9\u00C0-\u024F\u0370-\u03FF]\w*+(?:['’]\w++)*+"
_NAME_WORD = rf"{_W}(?:(?:-|\.(?=\d))\w++)*+(?:\+\+?(?![\w+]))?"
_NAME = rf"(?:{_NAME_WORD})"
# A Title-Case phrase (2-6 words, small connectors allowed): "Learning to Share".
# A word may end in "+"/"++" ("GraphLite and GraphLite+": the clean view of "GraphLite$^+$").
# (a word never runs into a glued dash, "Curious Replay---a form of ...")
_TITLE_PHRASE = (r"(?:[A-Z](?:\w|-(?!-))*+(?:\s+(?:of|for|to|and|in|on|via|with|the|a)?\s*[A-Z](?:\w|-(?!-))*+){1,5}"
                 r"(?:\+\+?(?![\w+]))?)")

_METHOD_HEADS = (
    "framework|frameworks|method|methods|approach|approaches|algorithm|algorithms|model|models|"
    "architecture|architectures|technique|techniques|system|systems|pipeline|mechanism|strategy|"
    "estimator|estimators|optimizer|optimiser|network|networks|module|paradigm|procedure|protocol|"
    "library|toolkit|toolbox|agent|agents|cache|scheme|policy|regularizer|regularization|decoder|encoder|"
    "layer|transformer|solver|tool|package|family|variant|plug-in|plugin|recipe|attack|defense|"
    "defence|sampler|planner|controller|operator|tokenizer|adapter|suite of estimators|"
    "language model|LLM|learner|classifier|generator|simulator-free method|training strategy|"
    "fine-tuning method|prompting method|loss|objective|formulation|extension|backbone|"
    "accelerator|compiler|engine"
)
_BENCH_HEADS = (
    "benchmark|benchmarks|dataset|datasets|data set|data sets|corpus|corpora|testbed|test bed|"
    "test suite|benchmark suite|evaluation suite|collection|leaderboard|arena|challenge|database|"
    "evaluation set|test set|gym"
)
_NONE_HEADS = (
    "metric|metrics|measure|score|statistic|theory|theorem|phenomenon|principle|notion|concept|"
    "problem|task|setting|condition|law|bound|analysis|perspective|lens|view|hypothesis|property|"
    "definition|criterion|quantity|index|effect|game|language|study|survey|conjecture"
)
#: the one-word head nouns of the three groups (a set lookup where only "is it a head?" matters)
_HEAD_WORDS = frozenset(w for w in f"{_METHOD_HEADS}|{_BENCH_HEADS}|{_NONE_HEADS}".lower().split("|") if " " not in w)
_HEAD_RE = re.compile(rf"\b(?P<b>{_BENCH_HEADS})\b|\b(?P<m>{_METHOD_HEADS})\b|\b(?P<n>{_NONE_HEADS})\b",
                      re.IGNORECASE)

_PROPOSE_VERB = (
    r"propose|proposes|proposed|introduce|introduces|introduced|present|presents|presented|"
    r"develop|develops|developed|design|designs|designed|devise|devises|devised|describe|describes|"
    r"release|releases|released|contribute|contributes|construct|constructs|constructed|curate|curates|"
    r"curated|create|creates|created|build|builds|built|establish|establishes|established|offer|offers|collected|"
    r"unveil|unveils|unveiled|give|gives|put forward|put forth|puts forward|puts forth|bring forth|brings forth|open-source|open-sources|"
    r"open-sourced|collect|collects"
)
_PROPOSE = re.compile(
    rf"\b(?:[Ww]e|[Tt]his (?:paper|work|study|article|note)|[Oo]ur (?:paper|work)|[Tt]he (?:paper|work))"
    # a perfect ("we have developed") and one adverb ("we publicly release", "we then propose")
    rf"\s+(?:ha(?:ve|s)\s+)?(?:(?:also|further|then|first|additionally|hereby|now|thus|therefore|hence|instead|"
    rf"next|(?!only\s)[a-z]{{2,}}ly)\s+)?(?:{_PROPOSE_VERB})\b"
    # "we build on/upon X": X is the work built on, not the authors' own
    rf"(?!\s+(?:on|upon|onto)\b)"
    rf"|\b(?:proposing|introducing|presenting)\b"
)
#: where _PROPOSE's matches start: each alternative's words up to its first non-literal ("[Tt]his "
#: before the noun, "[Oo]ur (?:paper|work)" spelt out), found with str.find, then matched there ("the"
#: and "our" alone came up ~88,000 times in the confpapers abstracts, "the paper"/"the work" seldom)
_PROPOSE_ANCHORS = ("We", "we", "This ", "this ", "Our paper", "Our work", "our paper", "our work", "The paper",
                    "The work", "the paper", "the work", "proposing", "introducing", "presenting")
# literal-first (a separate scan: as alternatives of _PROPOSE they would be tried at every position)
# "We analyse the setting and propose X": a bare verb after "and" shares the authors' subject;
# "(we) ... use it to develop the X framework": the authors' purpose clause. Each pattern starts
# with a literal, which the regex engine skips to (an alternative of _PROPOSE would be tried at
# every position of the text)
_PROPOSE_AND = re.compile(r"and (?:then |further |also |thus |(?!only )[a-z]{2,}ly )?"
                          r"(?:propose|introduce|present|develop|design|devise|establish|construct|release)\b")
_PROPOSE_TO = re.compile(r" to (?:develop|design|build|construct|propose|introduce|present)\b")
# "we show ... by designing a X (ABC) algorithm": the authors' means
# no leading \b: a pattern that starts with its literal "by " is searched for that string (a
# leading assertion made re try every position, ~25x slower); the word boundary is checked on use
_PROPOSE_BY = re.compile(r"by (?:designing|developing|devising|constructing|building)\b(?!\s+(?:on|upon|onto)\b)")
# "(we) use it to develop", "these findings lead us to propose": the authors' own purpose
_OBJECT_BEFORE = re.compile(r"(?:^|\W)(?:it|them|this|these|us)$")
# "we propose [the|a novel ...]? NAME" -- NAME right after the verb and optional determiner/adjectives
_AFTER_VERB = re.compile(
    rf"\s+(?:(?:the|our|a|an|two|three|novel|new|simple|first|general|unified|lightweight|"
    rf"efficient|scalable|principled|versatile|comprehensive|large-scale|challenging|"
    rf"effective|powerful|flexible|practical|generic)\s+){{0,3}}(?P<name>{_TITLE_PHRASE}|{_NAME})"
)
# "we propose a (adj)* HEAD called|dubbed|named|, NAME"
_AFTER_VERB_HEAD = re.compile(
    rf"\s+(?:a|an|the|our|two|three|four)\s+(?:(?!(?:that|which|who)\s)[\w\"“”'’-]+\s+){{0,6}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})"
    rf"(?:\s*,\s*(?:called|dubbed|named|termed|coined)?\s*|\s+(?:called|dubbed|named|termed|coined)\s+|"
    rf"\s*\(\s*|\s*:\s*|\s*,\s*|\s+[-–—]\s+|\s*--\s*|—(?=[A-Z]))(?P<name>(?-i:{_TITLE_PHRASE})(?=\s*[,.;:)–—]|\s+-|\s+(?-i:which|that|to|for|with|"
    rf"consisting|comprising|containing|covering|spanning|including)\b)|{_NAME})(?=\s*[,.;:)\s—])",
    re.IGNORECASE,
)
# "we propose a training-free ControlVideo to produce ...": lower-case modifiers, then a coined name
_AFTER_VERB_ADJ = re.compile(
    rf"\s+(?:a|an|the|our)\s+(?:(?!(?:of|for|to|in|on|with|by|from|via|and|or|as|at)\s)[a-z][\w-]*\s+){{1,3}}(?P<name>{_NAME})"
    rf"(?=\s*(?:[,.;:(]|--|—|which|that|to|for|with|(?:variant|version|extension)s?\b|$))"
)
# "we propose a new CNN architecture TrajectoryNet, which ..."
# (the name may be two all-capitals words: "a new detection method TOP-K RANK based on ..."; it ends
# at punctuation, a relative or a participle clause)
_AFTER_VERB_HEAD_BARE = re.compile(
    rf"\s+(?:a|an|the|our)\s+(?:[\w-]+\s+){{0,5}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})\s+"
    rf"(?P<name>(?-i:[A-Z][A-Z0-9]*+(?:-[A-Z0-9]++)*+\s[A-Z][A-Z0-9]*+(?:-[A-Z0-9]++)*+(?![\w-]))|{_NAME})"
    rf"(?=\s*(?:[,.;:(]|which|that|whose|to|for|with|via|using|(?:based|built|designed|inspired)\s|"
    rf"and\s+(?:show|demonstrate|evaluate|use|train|find)|$))",
    re.IGNORECASE,
)
# "we propose a novel method Hyperbolic Disk Embeddings to ...": a Title-Case name of two or more
# words right after the head noun, no comma, ending the noun phrase
_AFTER_VERB_HEAD_TITLE = re.compile(
    rf"\s+(?:a|an|the|our)\s+(?:[\w-]+\s+){{0,4}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})\s+"
    rf"(?P<name>(?-i:{_TITLE_PHRASE}))"
    rf"(?=\s*(?:[,.;:(]|$)|\s+(?-i:which|that|whose|to|for|with|via|using|based|built|designed|inspired)\b)",
    re.IGNORECASE,
)
# "we design computationally efficient algorithms X and Y, which ...": a plural head without an
# article, then a list of coined names that ends the clause
_AFTER_VERB_PLURAL_LIST = re.compile(
    rf"\s+(?!(?:a|an|the|our|this|these|that|its|their)\s)(?:[\w-]+\s+){{0,5}}?"
    rf"(?P<head>algorithms|methods|models|frameworks|architectures|estimators|datasets|benchmarks|corpora)\s+"
    rf"(?P<name>{_NAME})(?=(?:\s*,\s*(?:and\s+)?|\s+and\s+){_NAME}(?:\s*,\s*(?:and\s+)?|\s+and\s+|\s*[,.;:(]|\s+(?:which|that|to|for)\b))")
_ARTICLE_BEFORE_NOVEL = re.compile(r"(?:^|[^\w-])(?:[Aa]n?|[Tt]he)\s+$")
_NOVEL_HEAD_NAME = re.compile(
    rf"(?:[\w-]+\s+){{0,3}}?(?P<head>framework|method|approach|algorithm|model|architecture|technique|system|"
    rf"pipeline|mechanism|strategy|estimator|optimizer|network|module|objective|loss|benchmark|dataset|corpus|"
    rf"regularizer|sampler|solver)\s+(?P<name>{_NAME})(?=\s*[.,;:(]|\s+(?:which|that|to|for|with)\b)")
# "we curate and release new datasets (A, B, and C)": the names of what was made, listed in
# parentheses right after a new/novel head noun
_AFTER_VERB_HEAD_PAREN = re.compile(
    rf"\s+(?:(?:a|an|the|our|two|three|four|five|several)\s+)?(?:[\w-]+\s+){{0,4}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})"
    rf"\s*\((?P<list>[^()]{{3,120}})\)",
    re.IGNORECASE,
)
_CALLED = re.compile(
    # the look-ahead on the first letters lets the scan skip most positions (measured: -35% time)
    rf"(?=[nacdtwWr])(?<!so-)(?<!so )\b(?:namely|called|dubbed|named(?!\s+entit)|termed|coined|"
    rf"(?:which\s+|[Ww]e\s+)(?:call|name|dub|term|coin|denote)(?:\s+(?:it|them))?|and\s+(?:call|dub|term|coin|name)(?:\s+(?:it|them))?|referred to as|"
    rf"(?:[Ww]e|which we)\s+refer\s+to\s+as|(?:[Ww]e|which we)\s+refer\s+to\s+(?:it|them|th(?:is|ese)(?=\s+as\b)|(?:this|these|the|our|such\s+an?)\s+(?:[\w-]+\s+){{0,2}}?[\w-]+)\s+as|"
    rf"denoted as|denoted by)\s+(?:as\s+)?"
    rf"(?:it\s+|them\s+|(?:this|these|the|our|such\s+an?)\s+(?:[a-z][\w-]*\s+){{0,2}})?(?:the\s+|an?\s+(?=``|[\"“]))?(?:``|[\"“'])?"
    rf"(?P<name>{_TITLE_PHRASE}(?=(?:''|[\"”'])?(?:\s*[(,.;:]|\s+(?:to|that|which|for|with|in|on|by|as|is|and)\b))|{_NAME})"
)
# after a name: a citation in brackets ("[Kakade et al. 2011]", "[12]") or "previously proposed"
_CITED_AFTER = re.compile(r"\s*(?:\[[^\[\]]{0,60}\d[^\[\]]{0,20}\]|,\s*(?:previously|originally|first)\s+"
                          r"(?:proposed|introduced|developed)\b)")
_WE_NAMING = re.compile(r"\bwe\s+(?:call|name|dub|term|refer)", re.IGNORECASE)
# the clause's verb takes an existing thing: "this paper adopts a class of ... termed X"
_ADOPTED_BEFORE = re.compile(r"\b(?:adopts?|adopting|uses?|using|employs?|employing|leverages?|leveraging|"
                             r"utili[sz]es?|analy[sz]es?|analy[sz]ing|revisits?|revisiting)\b[^.;:]*$")
_EARLIER_WORK = re.compile(r"\b(?:recently (?:proposed|introduced|developed)|existing|prior|previous|popular|"
                           r"classical|well-known|standard|widely used)\b", re.IGNORECASE)
# "a new challenge named reliability bias": a challenge or issue named in lower case is a phenomenon
_CHALLENGE_BEFORE = re.compile(r"\b(?:challenges?|issues?|phenomen(?:on|a)|problems?|behaviou?rs?)\s+(?:named|called|termed|dubbed)\s+$")
# a lower-case name ends the clause (a closing quote may follow: "called ``cooperative filling''")
_LOWER_NAME = re.compile(r"[a-z][\w-]*+(?:\s+[a-z][\w-]*+){0,3}(?=(?:''|[\"”'])?\s*(?:[.,;:(]|$))")
# two lower-case names joined by "and" after a naming verb ("which we refer to as X and Y.")
_LOWER_PAIR = re.compile(r"(?P<a>[a-z][\w-]*+(?:\s+[a-z][\w-]*+){0,3}?)\s+and\s+"
                         r"(?P<b>[a-z][\w-]*+(?:\s+[a-z][\w-]*+){0,3})(?=\s*(?:[.,;:(]|$))")
_NAMING_END = re.compile(r"\b(?:as|call|dub|term|coin|name|it|them|the|our|an?)\s*(?:``|[\"“'])?\s*$")
_STRONG_NAMING = re.compile(r"\b(?:we|which|and)\s+(?:call|term|dub|coin)|dubbed|termed|coined|refer\s+to\s+as")
# the next names of a list after a first one: "SCALLION and SCAFCOM", "A, B and C"
# a lower-case phrase naming a phenomenon, not a method ("what we call the dominant frequency bias")
_PHENOMENON_END = re.compile(r"\b(?:bias|biases|collapse|shift|gap|trap|dilemma|trade-?off|curse|illusion|"
                             r"evidence|drift|failure|forgetting)$")
# the same words as the last word of an emphasised or defined term, in any case ("Global
# Catastrophic Forgetting", "*relaxed label shift*"): a phenomenon or a setting, not a method
_PHENOMENON_WORD = re.compile(r"\b(?:bias|biases|collapse|shift|gap|trap|dilemma|trade-?off|curse|illusion|"
                              r"drift|failure|forgetting|phenomenon|phenomena|problem|problems|setting|"
                              r"settings|regime|paradox)$", re.IGNORECASE)
# the last word of a name a paper gives a phenomenon, an effect or a conjecture (GUIDELINES: neither type)
_PHENOMENON_NAMES = frozenset(("curse", "curses", "paradox", "paradoxes", "effect", "effects", "hypothesis",
                               "hypotheses", "law", "laws", "bias", "illusion", "phenomenon", "phenomena",
                               "dilemma", "conjecture", "fallacy"))
# a possessive eponym with an algorithm head names one established procedure ("Oja's algorithm",
# "Laplace's method", "Jeffrey's rule", "Nesterov's acceleration", "Hutchinson's trace estimator"):
# dev gold and silver label all of its ~20 occurrences, the possessive of a result ("Tweedie's
# formula", "Fano's inequality", "Stein's identity", "Goodhart's law", "Bayes' rule") none of ~30
_EPONYM = re.compile(
    r"(?<![\w'’.-])(?P<who>[A-Z][a-z]{2,}(?:-[A-Z][a-z]{2,})?)['’]s\s+"
    r"(?:(?!(?:most|own|new|novel|proposed|original|main|key|first|best|same|other|simple|update|and|or|of|the|a|an)\b)"
    r"[a-z][a-z-]*\s+){0,3}?(?:algorithms?|methods?|rules?|acceleration|estimators?|momentum)\b")
# a possessive right before a name: "NVIDIA's", "the authors’"
_POSSESSIVE_BEFORE = re.compile(r"\w['’]s?\s+(?:[$\\{]|\\\w+\{|\*)*$")
# "Long Form (LF)" inside one emphasis
_DEFINITION_INSIDE = re.compile(r"\S\s*\([A-Za-z][\w+-]{1,14}\)$")
_PARTICIPLE = re.compile(r"[a-z](?:ed|en)$")
# an appositive with a head noun after a name (EntityRecognizer._head_is_none); compiled once: a
# pattern built and looked up in re's cache per call cost more than its match
_NONE_APPOSITIVE = re.compile(r"\s*(?:\([^()]{1,20}\)\s*)?(?:,|:|--|—|–|-)\s*(?:a|an|the)\s+((?:[\w-]+\s+){0,4}?)"
                              rf"(language models?|{_NONE_HEADS}|{_METHOD_HEADS}|{_BENCH_HEADS})\b(?!-)", re.IGNORECASE)
# a number format or a quantization bit-width configuration ("FP32", "BF16", "INT4", "MXFP4",
# "W4A16") names a precision, not a method: dev gold and silver label 0 of 34 occurrences
_NUMBER_FORMAT = re.compile(r"(?:U?INT|MXFP|FP|BF|TF|NF)\d{1,2}s?|W\d{1,2}A\d{1,2}", re.IGNORECASE)
# a coined name coordinated right next to a known or found name ("such as WaveNet and SampleRNN",
# "ESC-50, and SPC-2", "SAGA, SAG and SDCA") names a thing of the same kind: dev gold and silver
# label 38 of 45 such tokens (the rest a metric, a library, a version, a training stage)
_SIB_TOKEN = r"(?<![\w$\\/.-])(?P<name>[A-Za-z][\w.+-]*[\w+])(?![\w-])"
_SIB_SEP = r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)"
_SIBLING_AFTER = re.compile(rf"{_SIB_SEP}{_SIB_TOKEN}(?=\s*(?:[,;.)]|\s(?:and|or)\s|$))")
_SIBLING_BEFORE = re.compile(rf"{_SIB_TOKEN}{_SIB_SEP}$")
_SIBLING_LEAD = re.compile(r"(?:[,;:(]\s*|\s(?:as|including|e\.g\.,?|like|and|of|on|with|than)\s+|^)$")
_SENTENCE_START_BEFORE = re.compile(r"[.!?\n]\s*$|^\s*$")
_SPACE_OR_HYPHEN = re.compile(r"[\s-]+")
# a name given to a new metric: "an automatic metric, X, that", "a novel measure called X"
_METRIC_HEAD = re.compile(r"(?:metric|measure|score|statistic|criterion|index)s?", re.IGNORECASE)
# the metric head ends its noun phrase ("a metric for ...", not "the metric scores", "score-based")
_METRIC_END = re.compile(r"\s*(?:[,.;:()]|$)|\s+(?:for|of|that|which|to|based|designed|built|with|in|on|whose|"
                         r"where|and|measuring|quantifying|capturing)\b")
_METRIC_WORDS = ("metric", "measure", "score", "statistic", "criterion", "index")
# what must follow a metric word for _METRIC_NAMED to match there (one scan from literals, cheaper
# than _METRIC_NAMED's, which starts with ``\b`` and tries every position; 107 of 7,670 abstracts pass)
_METRIC_NAMED_GATE = re.compile(r"(?:metric|measure|score|statistic|criterion|index)"
                                r"(?:\s*[,:]|\s+(?:called|named|dubbed|termed|coined)\s)")
_METRIC_NAMED = re.compile(
    rf"\b(?:[Aa]n?|new|novel)\s+(?:[\w-]+\s+){{0,3}}?(?:metric|measure|score|statistic|criterion|index)"
    rf"(?:\s*,\s*(?:(?:called|named|dubbed|termed|coined)\s+)?|\s+(?:called|named|dubbed|termed|coined)\s+|\s*:\s*)"
    rf"(?:``|[\"“])?(?P<name>{_NAME})(?=\s*[,.;:()]|\s+(?:that|which|to|for|is|as|with|and)\b)")
# a colon and a sentence after an emphasised word: a label ("**WARNING**: This paper contains ...")
# "we propose two complementary frameworks for X: A and B."
#: a coined name that starts with a digit: a dimension or count prefix, a hyphen, a capitalised part
_DIGIT_NAME = re.compile(r"\d{1,3}[A-Za-z]{0,2}-[A-Z][A-Za-z]*[A-Z0-9][\w-]*|\d{1,3}[A-Za-z]{0,2}-[A-Z][a-z]{3,}")
_COLON_HEAD = re.compile(
    # "We collected and annotated two ... datasets: A and B": a second verb of the authors first
    rf"\s+(?:and\s+[a-z]{{3,}}\s+)?(?:(?:two|three|four|several|a\s+pair\s+of|a\s+family\s+of|a\s+suite\s+of)\s+|(?:a|an|the)\s+"
    rf"(?:new\s+|novel\s+)?(?:set|family|suite|pair)\s+of\s+)(?:[\w-]+\s+){{0,3}}?"
    rf"(?P<head>(?:{_METHOD_HEADS}|{_BENCH_HEADS})s?)\b(?!-)[^:;.\n]{{0,100}}?:\s+", re.IGNORECASE)
# a version number written after a known model's name: "PaLM 2", "PaLM 2-(S, M, L)", "Gemini 1.5 and"
_VERSION_AFTER = re.compile(
    r" (?P<v>\d(?:\.\d)?)(?=-[A-Za-z(]|[,;:)]|\.(?!\d)|$|\s+(?!(?:times|layers|epochs|steps|hours|days|tokens|points|"
    r"percent|orders|out|of|x|or|and\s+\d|to\s+\d|[A-Z]?\d)\b)[a-z(])")
# a version, year or size right after a known benchmark is part of its name (GUIDELINES: versions and
# sizes make different entities): "MS COCO 2014-30k", "ImageNet 32x32", "Ego4D v1", "Argoverse 1 and
# Argoverse 2"; a one-digit version only before a list separator or a data head noun
_BENCH_VERSION = re.compile(
    r" (?:(?:19|20)\d\d(?:-\d+[kK])?|\d{2,3}x\d{2,3}|v\d+(?:\.\d+)?)(?![\w'-]|\.\d)"
    r"| [1-9](?=\s*[,;)]|\s+(?:and|or)\s|\s+(?:[a-z]+\s+)?(?:benchmarks?|datasets?|splits?)\b)"
    r"| (?:V\d{1,2}|\d\.\d)(?=/\d|\s*[,;)]|\.(?!\d)|\s+(?:and|or)\s|\s+(?:[a-z-]+\s+)?(?:benchmarks?|datasets?|splits?)\b)")
# a version written as a decimal ("2.0") or with a v ("V2", "v1.5") right after a known model that
# _VERSION_AFTER leaves (a lower-case or digit-final name, "data2vec 2.0", "wav2vec 2.0"; a v-form,
# "Swin V2"; a version before a slash, "Claude 2.0/2.1"); the gold and silver labels write such a
# version inside the name (GUIDELINES). One digit before the point: "FID 1.73", "5.5 times" are no versions
_NAMED_VERSION = re.compile(
    r" (?P<v>[vV]\d{1,2}(?:\.\d)?|\d\.\d)(?![\w%$'-]|\.\d)"
    r"(?=[,;:)]|/\d|\.|$|\s+(?!(?:times|layers|epochs|steps|hours|days|tokens|points|percent|orders|out|of|x)\b)"
    r"(?:[a-z(]|and\s|or\s))")
# a decimal version right after a coined name the authors propose is part of it ("EigenPro 3.0, an
# algorithm", "Foo v2.1.") when the phrase ends there
_DECIMAL_VERSION = re.compile(r" (?P<v>v?\d{1,2}\.\d{1,2})(?=[,;:)]|\.(?!\d)|$|\s+(?:which|that|is|for)\b)")
_WORD_BEFORE_APOSTROPHE = re.compile(r"(?<![\w'-])[A-Z][\w-]*$")
# "a novel", "a new", "our proposed" right before a long form (a few modifiers may come between)
_NOVEL_BEFORE = re.compile(r"\b(?:[Aa]n?|[Oo]ur|[Tt]he)\s+(?:(?:first|brand)\s+)?(?P<novel>novel|new|proposed)\b"
                           r"(?:,?\s+[\w-]+){0,4}?,?\s+$")
# "we introduce a framework of / the concept of / the mechanism of X (ABC)": X is what is introduced
# (not "the concept of": a concept is as often a problem class, "the novel concept of Graphex MFGs")
_KIND_OF_GAP = re.compile(r"\s*(?:a|an|the|our)\s+(?:(?:novel|new|general)\s+)?(?:framework|mechanism|family|class)"
                          r"\s+of\s+(?:the\s+)?")
# "we design a new model-free algorithm for ILFO, X (ABC)": the long form in apposition to the
# proposal's head noun and its short complement (a name there, even one ending like a paradigm)
_HEAD_PP_APPOSITION = re.compile(rf"\s+(?:a|an|the|our)\s+(?:[\w-]+\s+){{0,4}}?(?:{_METHOD_HEADS})\s+(?:for|of)\s+"
                                 r"(?:(?!(?:that|which|who|using|based)\s)[\w-]+\s+){0,4}?[\w-]+\s*,\s*", re.IGNORECASE)
# Round 17: "we derive a novel, deterministic-sampling flavor of the VAE, the Unscented Autoencoder (UAE)":
# the long form in apposition to a new thing the proposal describes (no clause between)
_NOVEL_DESC_APPOSITION = re.compile(
    r"\s+(?:a|an)\s+(?:novel|new)\b(?:(?!\s(?:that|which|who|whose|using|based|where|to|by|than|and)\s)[^.;:()\[\]]){0,80}?"
    r",\s*(?:the\s+)?", re.IGNORECASE)
# "we introduce a multi-objective version of PBT, MO-PBT": a coined name in apposition to a version of
# another method
_VERSION_APPOSITION = re.compile(
    rf"\s+(?:a|an|the)\s+(?:[\w-]+\s+){{0,3}}?(?:version|variant|extension|generali[sz]ation)\s+of\s+(?:the\s+)?"
    rf"[\w-]+(?:\s+[\w-]+){{0,2}}?\s*,\s*(?:called\s+|named\s+|dubbed\s+)?(?P<name>{_NAME})(?=\s*[,.;:(]|\s+(?:which|that)\b)")
# "X (ABC), a novel decomposition of ...": an appositive saying the defined thing is new
_NOVEL_APPOSITION = re.compile(r"[)}*$\s]*,\s*(?:a|an)\s+(?:novel|new)\b")
# Round 11: a definition that opens an item of a list of the parts of the paper's own system
# ("X consists of two components: a scale meta-learner (SML) and ...", "Our model comprises (1) a
# Prototype Graph Model (PGM) ...") names one of its components (GUIDELINES: the paper's own named
# components are proposed)
_COMPONENT_CUE = re.compile(r"\b(?:consists?\s+of|consisting\s+of|comprises|comprising|composed\s+of|"
                            r"(?:two|three|four|several)\s+(?:[\w-]+\s+){0,2}?(?:components|modules|parts|"
                            r"ingredients|sub-?modules)\b)")
# the long form starts an item: after a separator, an enumerator or "and/or/of", an article and "new"
_ITEM_START = re.compile(r"(?:[,:;]|\(\w\)|\b(?:and|or|of))\s*(?:(?:a|an|the)\s+)?(?:(?:novel|new)\s+)?$")
_TERMS_AFTER_CUE = re.compile(r"\s+(?:only\s+)?(?:two|three|four|several)?\s*terms\b")
# the authors' own subject: "our", "the proposed", "we propose/design ...", "this paper introduces"
_OWN_SUBJECT = re.compile(r"\b(?:[Oo]ur|proposed|(?:[Ww]e|[Tt]his\s+(?:paper|work))\s+(?:\w+ly\s+)?"
                          r"(?:propos|introduc|present|design|develop|buil|devis|construct)\w*)\b")
# not when the subject is described as others' ("We note that existing pipelines consist of ...")
_OTHERS_SUBJECT = re.compile(r"\b(?:existing|previous|prior|typical|typically|conventional|traditional|standard|"
                             r"common|commonly|current|most|many|popular|they|their)\b", re.IGNORECASE)
_APPOS_BEFORE = re.compile(r"(?:,|--|—|–|:)\s*$")
# a split suffix after a known benchmark: a mention of the benchmark ("miniF2F-test")
_SPLIT_SUFFIX = re.compile(r"-(?:test|valid|val|validation|dev|train)")
# one or two capitalised plain words right before a known name (and the word after it)
_CAP_PREFIX = re.compile(r"(?<![\w-])(?:[A-Z][a-z]{2,} ){1,2}$")
_CAP_AFTER = re.compile(r" [A-Z][a-z]")
_WORD_BEFORE = re.compile(r"[^\s]+ +$")
_NOT_PREFIX_WORDS = frozenset(
    "traditional classical classic standard vanilla existing original conventional modern popular recent "
    "lower upper left right first second third final foundation prior posterior total overall global local "
    "large small big tiny deep shallow simple naive plain basic general generic novel new our the this that "
    "these those both each all any some many most several multiple single using with from compared versus "
    "unlike like via such also then thus finally however figure table section appendix equation".split())
# modifiers that change an algorithm's mechanism (one or two, right before a known method): the
# phrase names a variant ("linearized Laplace approximation", "two-timescale extragradient");
# evaluative, size or setting words ("simple", "deep", "conditional", "weighted") are not in it.
# The second line's words were kept on evidence of both label sets: the gold and silver
# annotators write "extended Kalman filtering", "soft k-means", "kinetic Langevin diffusion",
# "oblique decision trees", "batch gradient descent", "truncated backpropagation" whole and never
# leave such a word out; words they split about evenly ("adaptive", "private", "decoupled",
# "online", "conditional", "approximate", "recurrent", "hyperbolic") stay out
_MECHANISM_MODS = re.compile(
    r"(?<![\w-])(?:(?:generali[sz]ed|implicit|lineari[sz]ed|randomi[sz]ed|kerneli[sz]ed|discreti[sz]ed|"
    r"precondition(?:ed|ing)|projected|proximal|optimistic|amorti[sz]ed|annealed|tempered|"
    r"two-timescale|forward-looking|backward-looking|path-integrated|single-loop|double-loop|"
    r"zeroth-order|lazy|"
    r"extended|truncated|kinetic|soft|oblique|batch|sliced|fused|multinomial|full-matrix|inverse|"
    r"first-order|last-layer|cascaded|universal|greedy)\s){1,2}$")
# a subject or an auxiliary before the word makes it a verb: "we extended SGD to ...", "it generalized PCA"
_MOD_AS_VERB_BEFORE = re.compile(r"(?<![\w-])(?:[Ww]e|[Tt]hey|[Ii]t|which|who|has|have|had|mini)\s+$")
_MOD_PHRASE_END = re.compile(r"s?(?:\s*[,.;:()]|\s+(?:[a-z]+ly\s+)?(?:is|are|was|were|to|for|that|which|with|and|or|"
                             r"on|in|of|by|as|can|has|have|through|algorithms?|methods?|updates?|steps?|schemes?)\b|$)")
# an organisation's name ("European Patent Office (EPO)"): a source, not a benchmark
_ORG_END = re.compile(r"\b(?:Office|Agency|Institute|University|Laborator(?:y|ies)|Foundation|Association|Cent(?:er|re)|"
                      r"Organi[sz]ation|Bureau|Administration|Department|Council|Commission|Society|Company|Corporation)$")
# between two coordinated definitions: "X (ABC) and Y (DEF)", "X (ABC), Y (DEF)"
_DEF_COORD = re.compile(r"\)\s*(?:,\s*(?:and\s+|or\s+)?|\s(?:and|or)\s+)(?:the\s+)?")
_TOOL_CONNECTOR = re.compile(r"(?P<first>[A-Z][\w-]*+)\s+(?:with|via|on|for|in|to|using)\s+")
_NOTICE_AFTER = re.compile(r"\s*:\s*(?:This|These|The|Some|It|Our|All|Examples?|Contains?)\b")
# a data head noun right after a name or its "(ABC)": "the \textit{X} dataset", "X (ABC) corpus"
_DATA_HEAD_AFTER = re.compile(r"(?:[\s}*$)]|\([^()]{1,20}\))*+(?:dataset|datasets|data set|benchmark|benchmarks|"
                              r"corpus|corpora|test suite|benchmark suite|testbed)\b", re.IGNORECASE)


def _data_head_after(text: str, pos: int) -> str | None:
    """BENCHMARK when a data head noun follows ``pos`` directly, else None."""
    return BENCHMARK if _DATA_HEAD_AFTER.match(text, pos) else None


# an emphasised name right after "on/from (the)": what the paper evaluates on or draws from
#: Round 8: italics written as "_X_", "{\\em X}" or "{\\it X}" (markup the rules now read through)
_WEAK_EMPHASIS_BEFORE = re.compile(r"(?:\{\\(?:em|it)\s+|(?<![_\w])_)$")
_CONCEPT_OF_BEFORE = re.compile(rf"(?<!novel )(?<!new )(?<!our )\b(?:{_NONE_HEADS}|notion|concept)s?\s+of\s+(?:the\s+|a\s+|an\s+)?[\\{{}}$*_\w]*\s*$",
                                re.IGNORECASE)
_EXAMPLE_BEFORE = re.compile(r"\b(?:such as|like|exemplified by|e\.g\.,?|including)\s+(?:the\s+)?[\\{}$*_]*$", re.IGNORECASE)
_EVAL_PREP_BEFORE = re.compile(r"\b(?:on|from)\s+(?:the\s+)?[\\{}$*\w]*$", re.IGNORECASE)
_LIST_GAP = re.compile(r"[\\{}$*\w]*\s*(?:,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)[\\{}$*\w]*")
_OUR_BEFORE = re.compile(r"\bour\s+[\\{}$*\w]*$", re.IGNORECASE)
# emphasis marks foreign phrases and descriptions too: these are never a name
_LATIN_PHRASES = frozenset(("a posteriori", "a priori", "a fortiori", "ad hoc", "post hoc", "per se", "de facto",
                            "de novo", "in situ", "in silico", "in vivo", "in vitro", "ex ante", "ex post", "vice versa",
                            "et al", "et al.", "inter alia", "status quo", "bona fide", "sui generis", "ceteris paribus",
                            "mutatis mutandis", "prima facie", "ab initio", "i.e.", "e.g.", "etc"))
# before an emphasised phrase: a naming verb, or an apposition to "a new/novel ..." (the authors' own)
_EMPH_NAMING_BEFORE = re.compile(
    r"(?:\b(?P<verb>called|named|dubbed|termed|coined|we\s+(?:call|name|dub|term))(?:\s+as)?\s+(?:an?\s+|the\s+)?"
    r"|\b(?:an?|our)\s+(?:[a-z]+ly\s+)?(?:new|novel)\s+(?:[\w-]+\s+){0,7}?[\w-]+\s*(?:,|:|---|--|—|–)\s*(?:an?\s+)?)[`'\"“]*$")
_EMPH_LEAD_WORDS = frozenset("a an the this these that those our its their novel new".split())
# a long form naming a field of study or a paradigm, whatever its case
_FIELD_END = re.compile(r"(?:[Ll]earning|\bRL|[Oo]ptimi[sz]ation|[Rr]ecognition|[Dd]etection|[Gg]eneration|"
                        r"[Rr]etrieval|[Cc]lassification|[Ss]egmentation|[Tt]ranslation|[Aa]nswering|"
                        r"[Cc]ompletion|[Ee]xtraction|(?:[Dd]omain|[Tt]ime)[\s-]+[Aa]daptation)$")
# ", MulGA": the method's own coined name in apposition after its head noun
_TOOL_BEFORE = re.compile(r"\b(?:based on|using|uses?|via|with|leverag(?:ing|es?)|harness(?:ing|es)?|exploit(?:ing|s)?|"
                          r"utili[sz](?:ing|es?)|employ(?:ing|s)?|from|by)\s+(?:the\s+)?(?:[a-z][\w-]*\s+)?$")
# a bare Greek letter read from math ("$\Omega(\log d)$" reads "Omega(log d)") is a symbol, not a name
_LOWER_PROPOSAL = re.compile(
    rf"\s+(?P<name>[a-z][\w-]*+(?:\s+[a-z][\w-]*+){{0,3}}?)\s*(?:,|--|—|–|\s-)\s*(?:a|an)\s+"
    rf"(?:(?!(?:and|or|that|which|for|of|to)\s)[\w-]+\s+){{0,4}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})\b(?!-)")
#: first words of a lower-case phrase after a proposal verb that make it no name ("we propose new
#: ways, a ...", "we present two methods, a ...")
_LOWER_PROPOSAL_STOP = frozenset(
    "a an the our this these that its their new novel two three four several various multiple some each both "
    "it them they simple efficient effective general generic theoretical empirical extensive further additional "
    "improved modified alternative different such".split())
#: verbs that open a second clause of the authors after "we propose X and ..."
_SECOND_VERBS = ("explore|explores|show|shows|demonstrate|demonstrates|evaluate|evaluates|analy[sz]e|analy[sz]es|"
                 "derive|derives|prove|proves|study|studies|investigate|investigates|validate|validates|"
                 "provide|provides|establish|establishes|conduct|conducts|compare|compares|apply|applies|"
                 "extend|extends|test|tests|use|uses|discuss|discusses|examine|examines")
# "we propose velocity parameterization and ...": a bare lower-case phrase after the verb
_BARE_VERBS = ("propose", "introduce")
_LOWER_BARE_PROPOSAL = re.compile(
    r"\s+(?P<name>(?!(?:and|or|to|of|for|in|on|with|by|from|via|as|at|that|which|how|what|when|where|whether|"
    r"is|are|was|were|be|been|can|will|may|here|there|future)\s|[a-z]+ing\s)"  # "we introduce is based on", "augmenting X"
    r"[a-z][a-z-]*+(?:\s+(?!(?:and|or|to|of|for|in|on|with|by|from|via|as|at|that|which|is|are)\b)[a-z][a-z-]*+){1,3})"
    r"(?=\s*(?:[,.;:(]|--|—|(?:to|which|that|for|as|with|and|in|on)\s))")
# ("we propose X and explore variance reduction techniques": a second verb, not a shared head)
_BARE_CONTINUED = re.compile(
    rf"\s+and\s+(?!(?:{_SECOND_VERBS})\s)(?:[\w-]+\s+){{0,3}}?(?:{_METHOD_HEADS}|{_BENCH_HEADS}|strategies|schemes|mechanisms|modules)\b|\s+(?:for|of|with|in|on)\s+(?:[\w-]+\s+){{0,3}}?[\w-]+\s*\(",
    re.IGNORECASE)
#: words that make a bare phrase after "we propose" a description, not a name
_BARE_STOP = frozenset(
    "methods approaches algorithms techniques strategies ways means modifications improvements changes extensions "
    "solutions ideas models frameworks schemes tools metrics measures bounds results analyses analysis guarantees "
    "experiments evaluation evaluations insights theory principles notions concepts variants alternatives "
    "using learning training modeling modelling leveraging incorporating adding applying combining "
    "directions variables modules environments features maximization minimization".split())
_APPOS_AFTER_NP = re.compile(
    rf"\s+(?:a|an)\s+(?:(?!(?:and|or|the|that|which)\s)[\w-]+\s+){{1,9}}?[\w-]+,\s+(?P<name>{_NAME}),\s+"
    rf"(?:to|which|that|whose|where)\b")
# "we devise an anytime algorithm, fictitious team-play, that ...": a lower-case name set off by
# commas right after the described proposal's head noun
_LOWER_APPOS_AFTER_NP = re.compile(
    rf"\s+(?:a|an)\s+(?:(?!(?:and|or|the|that|which)\s)[\w-]+\s+){{0,5}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})"
    # set off by commas, or by a pair of dashes ("a novel algorithm --- expertise trees --- that ...")
    rf"(?:,\s+|\s*(?P<dash>---|--|—|–)\s*)"
    rf"(?:the\s+)?(?P<name>[a-z][a-z-]*+(?:\s+[a-z][a-z-]*+){{0,3}})(?(dash)\s*(?P=dash)\s*|,\s+)(?:that|which|whose|where|to)\b")
#: words that make such an appositive a reference, not a name ("a new method, the usual one, which")
#: or a clause ("a benchmark dataset, verified by experts, to ...", "a model, using only text, which")
_APPOS_REFERENCE = frozenset("one ones same other former latter above following usual "
                             "by with for of in on to from as at via into than without".split())
_PAREN_ITEM = re.compile(rf"(?<![\w-])(?!(?:and|or)\s){_NAME}(?![\w-])")
_GENERIC_TAIL = frozenset(("Tasks", "Games", "Environments", "Domains", "Problems", "Scenes", "Scenarios"))
_GREEK_ONLY = re.compile(rf"(?:{GREEK_LETTERS})\d*")
_QUOTED_BEFORE_HEAD = re.compile(
    rf"(?:``|“)(?P<q>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){{1,4}})(?:''|”)\s+(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})s?\b")
#: a quoted name (any quote style) right before a data head noun
_QUOTED_DATA = re.compile(
    r"(?:``|“|‘|'|\")(?P<q>[A-Z0-9][\w-]*(?: [A-Za-z0-9][\w-]*){0,3})(?:''|”|’|'|\")\s+"
    r"(?:datasets?|data sets?|benchmarks?|environments?|suites?|corpus|corpora|testbeds?)\b")
_QUOTE_CHARS = ("``", "“", "‘", "'", '"')
_QUOTE_STRIP = " `'\"“‘"
_QUOTED_AFTER_VERB = re.compile(
    r"\s+(?:(?:a|an|the|our)\s+)?(?:(?:novel|new|simple)\s+)?(?:``|\"|“)(?P<q>[A-Za-z][\w-]*(?: [A-Za-z][\w-]*){0,4})"
    r"(?:''|\"|”)")
_QUOTE_NAME_END = re.compile(r"\s*(?:[,.;:(]|--|—|–|(?:which|that|whereby|where|to|for|on|in|with|by|as|is|are|and)\s)")
_NOVELTY = re.compile(r"\b(?:first|novel|new)\b")
_HEAD_APPOSITION_END = re.compile(rf"\b(?:{_BENCH_HEADS}|{_METHOD_HEADS}),\s*$", re.IGNORECASE)
_RELATIVE_AFTER = re.compile(r"\s*,\s*(?:which|that|whose)\s")
_INDEFINITE_APPOSITION = re.compile(r"\s*(?:\([^()]{1,20}\)\s*)?,\s*(?:an?|the first)\s")
_ADJECTIVE_END = re.compile(r"(?:ian|ic|al|ive|ous|ary)$")
_NAME_APPOSITION = re.compile(r"\s*,\s*[A-Z][\w-]*[A-Z0-9]")
_NAMED_LATER = re.compile(r"[^.;]{0,40}?\b(?:called|named|dubbed|termed|coined|namely)\b")
_LIST_NEXT = re.compile(rf"(?:\s*,\s*(?:and\s+)?|\s+and\s+)(?P<name>{_NAME})(?=\s*[,.;:)]|\s+(?:and|for|to|which|that|with|in|on)\b)")
_APPOSITIVE = re.compile(
    rf"(?P<name>{_NAME})[\"”']?(?:\s*\([^()]{{1,20}}\))?\s*(?:,|:|--|—|–|\s-)\s*"
    rf"(?P<det>a|an|the|our)\s+(?P<mods>(?:[\w()-]+\s+){{0,6}}?)(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS}|{_NONE_HEADS})\b(?!-)",
    re.IGNORECASE,
)
# the appositive is found from its cheap anchor (", a", ": the", " -- an") and matched from the
# name just before it, so the name pattern does not run at every word of the text
_APPOS_ANCHOR = re.compile(r"(?:,|:|--|—|–|\s-)\s*(?:a|an|the|our)\s", re.IGNORECASE)
_APPOS_NAME_END = re.compile(rf"(?P<name>{_NAME})[\"”']?(?:\s*\([^()]{{1,20}}\))?\s*$")
#: A subtitle that studies the name before the colon rather than presenting it ("LoRA: A Study of ...").
_STUDY_SUBTITLE = re.compile(r"\s*(?:(?:an?|the)\s+)?(?:(?:closer|second|new|fresh)\s+look|study|studies|analysis|"
                             r"analyses|survey|review|investigation|examination|empirical|revisit|rethinking|"
                             r"understanding|evaluating|evaluation|benchmarking|on\s|when\s|why\s|how\s|what\s|"
                             r"does\s|do\s|is\s|are\s|can\s)", re.IGNORECASE)
_TITLE_NAME = re.compile(rf"^\s*(?P<name>{_NAME}(?:\s+{_NAME}){{0,2}})\s*:\s*(?P<rest>[^\n]{{0,80}})")
_BENCH_HEAD_WORDS = (r"benchmarks?|datasets?|data sets?|databases?|benchmark suites?|corpus|corpora|testbeds?|"
                     r"environments?|leaderboards?|challenges?|collections?|test sets?|training sets?|query logs?")
_METHOD_HEAD_WORDS = (r"algorithm|framework|architecture|network|optimizer|method|estimator|backbone|family|series|"
                      r"language model|LLM|classifier")
_BENCH_HEAD_WORD = re.compile(rf"\s(?:{_BENCH_HEAD_WORDS})\b")
_METHOD_HEAD_WORD = re.compile(rf"\s(?:{_METHOD_HEAD_WORDS})\b")
#: both in one scan of the text (group "b" or "m"): no word of one list starts one of the other, nor
#: follows a space inside one ("data sets", "language model"), so their matches never overlap and
#: this finds each one's matches, merged in text order
_HEAD_WORD = re.compile(rf"\s(?:(?P<b>{_BENCH_HEAD_WORDS})|(?P<m>{_METHOD_HEAD_WORDS}))\b")
_TITLE_AT_END = re.compile(r"(?<![\w-])(?P<name>[A-Z][\w-]*+(?: (?:of |for |and )?[A-Z][\w-]*+){1,3}) $")
_NAME_AT_END = re.compile(rf"(?P<name>{_NAME})\s+$")
_ITEM = rf"(?:(?:[A-Z][\w-]*+\s+){{0,2}}{_NAME})"  # "Bouncing Balls", "Fashion MNIST"
#: Sources that are generic on their own (stop names) but name a dataset before a data head noun.
_SOURCE_WORDS = ("Wikipedia", "Twitter", "Reddit", "Weibo", "Stack Overflow", "StackOverflow", "Wikidata")
_SOURCE_DATA = re.compile(
    r"(?<![\w-])(?P<name>Wikipedia|Twitter|Reddit|(?:Sina )?Weibo|Stack ?Overflow|Wikidata)\s+"
    r"(?:data(?:\s?sets?)?|corpus|corpora|database|collection|dumps?)\b")
_BENCH_AFTER = re.compile(
    rf"(?P<list>{_ITEM}(?:\s*,\s*(?:and\s+|or\s+)?{_ITEM}){{0,8}}(?:,?\s+(?:and|or|&)\s+(?:the\s+)?{_ITEM})?)"
    rf"\s+(?P<head>benchmarks?|datasets?|data sets?|databases?|benchmark suites?|corpus|corpora|testbeds?|environments?|"
    rf"leaderboards?|challenges?|collections?|test sets?|training sets?|query logs?)$"
)
# a list item that does not swallow the list's "and"/"or"
_LIST_ITEM = rf"(?:(?:[A-Z][\w-]*+\s+){{1,2}}(?![a-z]){_NAME}|(?!(?:and|or|the)\b){_NAME})"
_COLON_ITEMS = re.compile(rf"(?P<list>{_LIST_ITEM}(?:\s*,\s*(?:and\s+)?{_LIST_ITEM}){{0,4}}(?:,?\s+and\s+{_LIST_ITEM})?)"
                          rf"\s*(?:[.;]|$|,\s+[a-z]+(?:ed|ing)\b)")  # or a participle clause ("A and B, captured ...")
_BENCH_BEFORE = re.compile(
    rf"\b(?:benchmarks?|datasets?|data sets?|corpora|environments?|collections)\s*(?P<open>\(|,|:)?\s*"
    rf"(?P<trigger>such as|including|like|namely|e\.g\.,?|i\.e\.,?)?\s*(?:the\s+)?"
    rf"(?P<list>{_LIST_ITEM}(?:\s*,\s*(?:and\s+|or\s+)?(?:the\s+)?{_LIST_ITEM}){{0,10}}"
    rf"(?:,?\s+(?:and|or|&)\s+(?:the\s+)?{_LIST_ITEM})?)"
)
_METHOD_AFTER = re.compile(
    rf"(?P<name>{_NAME})\s+(?P<head>algorithm|framework|architecture|network|"
    rf"optimizer|method|estimator|backbone|family|series|language model|LLM|classifier)\b"
)
_COMPARE = re.compile(
    rf"\b(?:compared (?:to|with|against)|outperforms?|outperforming|baselines? (?:such as|including|like)|"
    rf"baselines?,? (?:e\.g\.,?|i\.e\.,?)|surpass(?:es|ing)?|than|versus|vs\.?)\s+(?:the\s+)?(?:strong\s+)?"
    rf"(?P<list>{_NAME}(?:\s*,\s*(?:and\s+|or\s+)?{_NAME}){{0,6}}(?:,?\s+(?:and|or)\s+{_NAME})?)"
)
_METHOD_SUFFIX = re.compile(
    r"(?<![\w-])[A-Z][A-Za-z0-9]*(?:Net|Nets|Former|former|GAN|GANs|BERT|GPT|LSTM|NeRF|Mamba|Llama|LLaMA|"
    r"Diffusion|VAE|Seg|Det|Flow|Zero)(?:-[\w.]+)*\b"
)
_BENCH_SUFFIX = re.compile(
    r"(?<![\w-])[A-Z][\w]*(?:-[\w]+)*(?:Bench|bench|QA|Eval|Arena|Gym|World)(?:-[\w.]+)?\b"
    r"|(?<![\w-])[A-Z][A-Za-z]+\w*-\d+(?:\.\d+)?[kKM]\b"
)
_VERSION_GLUED = re.compile(r"v?\d+(?:\.\d+)*$")
# a version written as its own word after a name ("v0.02", "v2", "2.0")
_VERSION_WORD = re.compile(r"[vV]\d+(?:\.\d+)*|\d+\.\d+")
# a model with its size in billions of parameters ("Alpaca-30B", "Falcon-180B")
_MODEL_SIZE_TOKEN = re.compile(r"[A-Z][\w.]*-\d+(?:\.\d+)?[Bb]")
_SIZE = re.compile(r"[\s-](?:\d+(?:\.\d+)?[BMbm]|\d+x\d+[Bb])\b(?:-(?:Instruct|Chat|Base|it|hf))?")
_NAME_TOKEN = re.compile(rf"(?<![\w\\$-]){_NAME}")
# a word with a capital or digit after its first character, or hyphen-joined capitalised parts
# (a lower-case run is taken possessively and must meet a capital or digit: the common all-lower-case
# word fails at once instead of being rescanned lazily; measured 27% faster, same matches on confpapers)
_COINED_TOKEN = re.compile(
    r"(?<![\w\\$.-])(?:[a-z]++(?=[A-Z0-9_])|[A-Z])(?:\w*?[A-Z0-9]\w*+|\w*+(?=-[A-Z0-9]))(?:-\w++)*+")
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+|or\s+)?(?:the\s+)?|\s+(?:and|or|&)\s+(?:the\s+)?")
_LONG_CAPS = re.compile(r"[A-Z]{13,}")
_LATEX = re.compile(r"[\\$^{}_=<>|@#%~]")
_USED_MODS = re.compile(r"\b(?:popular|widely|standard|existing|prior|previous|classic|classical|"
                        r"common|commonly|well-known|state-of-the-art|recent|conventional|strong|"
                        r"baseline|traditional|off-the-shelf)\b", re.IGNORECASE)
_FOLLOWED_BY_PUNCT = re.compile(r"\s*(?:[,(:;.]|--|—|–|\s-\s|$)")
# a lower-case word after the name makes it a modifier ("Jacobian-free guidance"), except these
_FOLLOWED_BY_NOUN = re.compile(
    r"\s+(?!(?:that|which|to|for|as|with|and|in|on|by|via|from|is|was|can|we|using|under|through|"
    r"at|into|where|whose|consisting|comprising|leveraging|based|the|a|an)\b)[a-z]")
_NP_END = re.compile(r"\s(?:that|which|to|for|with|of|designed|built|based|in|on|from|and|where|by|"
                     r"trained|capable|consisting|comprising|covering|containing|spanning|featuring|"
                     r"including|across|using|tailored|aimed|enabling|allowing)\s", re.IGNORECASE)
_TECH_HEAD = re.compile(
    r"^(?:descent|ascent|search|sampler|averaging|estimator|embeddings?|propagation|smoothing|clipping|"
    r"boosting|bagging|dropout|transform|iteration|gradients?|rule|units?|machines?|"
    r"autoencoders?|transformers?|perceptrons?|trees?|forests?|process(?:es)?|fields?|flows?|"
    r"memory|algorithm|optimi[sz]er|networks?|nets?|splatting|leader|solver|detector|classifier|"
    r"solving)s?$",
    re.IGNORECASE)
# generic operations: a method only when the long form is a Title-Case name ("Learning Rate Rewinding")
_WEAK_TECH_HEAD = re.compile(
    r"^(?:sampling|decoding|pruning|rewinding|estimation|coding|encoding|normalization|distillation|"
    r"regularization|tuning|prompting|adaptation|alignment|attention|routing|consolidation|"
    r"blending|matching|inference|fusion)$",
    re.IGNORECASE)
_GENERIC_CLASS = re.compile(
    r"^(?:(?:large|small|masked|causal|autoregressive|pre-?trained|generative|foundation|reward|world|"
    r"vision-language|visual|multimodal|multi-modal|deep|neural|language|vision|diffusion|reasoning|"
    r"graph|machine|statistical|probabilistic|latent|sequence|artificial)\s+)*"
    r"(?:language|foundation|reward|world|generative|neural|deep|reasoning|vision(?:-language)?|"
    r"multimodal|machine learning|learning)?\s*(?:models?|networks?|agents?|systems?|nets?)$",
    re.IGNORECASE)
_EXTEND = re.compile(rf"\b(?:[Ww]e|[Tt]his (?:paper|work))\s+(?:first\s+|further\s+|then\s+)?(?:extend|generalize|"
                     rf"adapt|lift)\s+(?:the\s+)?{_NAME}\s+(?:to|into)\s+(?:the\s+)?(?P<name>{_NAME})(?=[\s,.;:])")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Za-z]\d|\d[A-Za-z]")
# a lower-case prefix on an acronym names a variant ("meta-VBO"), unless the prefix is an
# English bound prefix ("non-IID", "multi-GPU", "pre-LN")
_LOWER_PREFIX_NAME = re.compile(r"(?!(?:non|multi|pre|post|sub|anti|semi|inter|intra|cross|single|over|under|"
                                r"out|full|half|de|re|un|in|co|per|all|low|high|human|large|small)-)[a-z]{2,}-[A-Z][A-Z0-9]{2,}(?:[+-]\w+)*$")
_METHOD_HEAD_AFTER_SHORT = re.compile(
    r"\)?\s+(?:(?:estimation|inference|search|sampling|learning|optimi[sz]ation)\s+)?"
    r"(?:algorithm|method|framework|architecture|network|optimizer|estimator|procedure|sampler|solver)s?\b")


def _field_methods(long: str, head: re.Match[str]) -> bool:
    """Is an abbreviation's long form a task or field whose methods the plural head after the
    short form counts ("Source-Free Domain Adaptation (SFDA) methods", "Time Series
    Classification (TSC) algorithms")? Then the acronym names the field, not one method; a
    singular head ("the Behavioral Function-Aware Detection (BFAD) framework") can be one."""
    return head.group(0).endswith("s") and (_FIELD_END.search(long) is not None or _TASK_END.search(long) is not None)


_NONE_LAST_WORD = re.compile(
    r"[\s-](?:effects?|phenomen(?:on|a)|hypothes[ie]s|paradox|laws?|principles?|"
    r"theorems?|conjectures?|bounds?|gaps?|metrics?|scores?|measures?|index|privacy)$",
    re.IGNORECASE)
_OUR_NAME = re.compile(rf"[Oo]ur\s+(?:(?:proposed|new|novel)\s+)?(?P<name>{_NAME})")
# "our new model CLiMA, which", "our proposed JAW-FCS method", "Our proposed method, X, introduces",
# "Our solution, X, is based on" ("solution" and "proposal" name the contribution only after "our")
_LOWER_LAST_PART = re.compile(r"-[a-z]+$")
_OUR_HEAD_NAME = re.compile(
    rf"[Oo]ur\s+(?:(?:proposed|new|novel|own)\s+)?(?:[\w-]+\s+){{0,2}}?(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS}|"
    rf"solution|proposal)(?:\s*,\s*|\s+)"
    rf"(?P<name>{_NAME})(?=\s*[,.;:)]|\s+(?:which|that|is|was|to|for|and|can|could|will|may|might|does|"
    rf"outperforms?|achieves?|improves?|reduces?|surpass(?:es)?|yields?|attains?|obtains?|solves?|resolves?|"
    rf"enables?|contains?|consists?|covers?|provides?|includes?|offers?|allows?)\b)")
_OUR_AND = re.compile(rf"\s+and\s+(?P<name>{_NAME})")
_PARTICIPLE_MODIFIER = re.compile(r"[a-z]ed\s")
# "our long instruction-following LongAlpaca dataset": lower-case modifiers between "our" and a coined
# name before a head noun
_OUR_MODIFIED_NAME = re.compile(
    rf"[Oo]ur\s+(?:(?!(?:and|or|of|in|on|the|a|an|with|for|to|from|by|as|at|vs)\s)[a-z][a-z-]*\s+){{1,3}}?"
    rf"(?P<name>{_NAME})\s+(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})s?\b")
_OUR_NEXT = re.compile(
    rf"\s*(?:[,.;:)]|$)|\s+(?:(?P<b>{_BENCH_HEADS})|{_METHOD_HEADS})\b|\s+(?:is|was|can|could|will|also|"
    rf"consistently|significantly|substantially|further|then|outperforms?|achieves?|improves?|reduces?|"
    rf"surpass(?:es)?|yields?|enables?|attains?|obtains?|learns?|provides?|performs?|matches|beats|"
    rf"exhibits|shows|leads|requires|scales|generalizes|remains|reaches|delivers|establishes|sets)\b")
# a Title-Case run of the title ("Shadow Critics"), and the lower-case words after a proposal verb
_TITLE_CASE_RUN = re.compile(r"[A-Z][\w-]*(?:\s+(?:of|for|to|and|in|on|via|with|the|a)?\s*[A-Z][\w-]*){1,5}")
_LOWER_PHRASE = re.compile(
    r"\s+(?:(?:the|a|an|our|novel|new|simple)\s+){0,2}(?P<phrase>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*){1,4})")
# "adversarial learning", "linear bandits": paradigms and settings, not names (GUIDELINES)
_PARADIGM_END = re.compile(r"(?:learning|learner|bandits?|games?|problems?|settings?|tasks?)$", re.IGNORECASE)
_ECHO_INTRO = re.compile(r"\s*(?:\(|,\s*(?:a|an|the|which|that)\s|--|—|–|:\s)")
# a task or problem a title names ("... Spurious Correlation Mitigation", "Entity-Oriented Search")
_TASK_END = re.compile(r"(?:discovery|mitigation|search|estimation|prediction|control|modell?ing|understanding|"
                       r"reasoning|planning|compression|design|synthesis|alignment|adaptation|fine-tuning|"
                       r"pre-?training|computation|separation|tracking|forecasting|locali[sz]ation|reconstruction|"
                       r"completion|editing|captioning|summari[sz]ation|parsing|finding|stereo)$", re.IGNORECASE)
#: the last word of a Title-Case long form that names a task, an activity or a problem class, not a
#: thing: a gerund ("Monitoring", "Reasoning") or a task noun (:data:`_TASK_END`), or "Programs"/"Problems"
_TASK_LONG_END = re.compile(rf"\b(?:[a-z]{{2,}}ing|(?:{_TASK_END.pattern})|programs|problems?)$", re.IGNORECASE)
_INDEFINITE_GAP = re.compile(r"\b(?:an?|another)\s")
_CLAUSE_END = re.compile(r"\s*(?:[.;]|$)")
_HEAD_NEXT = re.compile(rf"\s+(?:{_METHOD_HEADS}|{_BENCH_HEADS})\b")
# "Gradient Folding is proposed to ...", "Modulated Phase Diffusion (MPD) is proposed": the passive
# present only (past tense and "by"/"in" usually cite earlier work)
_PASSIVE_PROPOSED = re.compile(
    r"\)?\s*(?:,\s*)?(?:is|are)\s+(?:(?:first|newly|then|further|also|hence|therefore|thus|hereby)\s+)?"
    r"(?:proposed|introduced|presented|developed|devised|designed)\b(?!\s+(?:by|in)\b)")
# found from the participle (literal-first, so the scan skips to candidates) back to "is/are"
_PASSIVE_VERB = re.compile(r"(?:proposed|introduced|presented|developed|devised|designed)\b")
_PASSIVE_BEFORE = re.compile(r"\s(?:is|are)\s+(?:[a-z]+\s+)?$")
# literal-first prefilters: a pattern that starts with a look-behind or ``\b`` is tried at every
# position of the text, one that starts with literals is skipped to its candidates in C
# Substrings without which a pattern cannot match (checked before the whole-text scan).
_BENCH_BEFORE_WORDS = ("benchmark", "dataset", "data set", "corpora", "environment", "collections")
_COMPARE_WORDS = ("compared", "outperform", "baseline", "surpass", "than", "versus", "vs")
_EXTEND_WORDS = (" extend ", " generalize ", " adapt ", " lift ")  # the verb as _EXTEND needs it
#: substrings without which _CALLED cannot match (``str.__contains__`` is cheaper than any regex scan):
#: every trigger holds one ("we term", "and dub", "namely", "referred"); seven scans, not eighteen
_CALLED_WORDS = ("name", "call", "dub", "term", "coin", "refer", "denote")
# Where the matches of whole-text scans start, for :func:`_anchored_finditer` (_BENCH_BEFORE and
# _COMPARE start with one of their words above). An _APPOS_ANCHOR match starts at one of
# _APPOS_ANCHORS or one character before a hyphen (``\s-``).
_APPOS_ANCHORS = (",", ":", "-", "—", "–")
_APPOS_ANCHORS_AFTER = ("-",)
_PASSIVE_VERB_ANCHORS = ("proposed", "introduced", "presented", "developed", "devised", "designed")
_OUR_ANCHORS = ("our", "Our")
_CITATION = re.compile(
    r"\((?:[A-Z][\w'’-]+(?:\s+et\s+al\.?|\s+(?:and|&)\s+[A-Z][\w'’-]+)?,?\s+"
    r"(?:19|20)\d\d[a-z]?(?:;[^()]{0,80})?)\)")
_PHRASE_AT_END = re.compile(r"(?<![\w-])(?P<phrase>(?:[\w-]+\s+){1,4}[\w-]+)$")
_PHRASE_STOP = frozenset(
    "the a an and or of with on in to for by as from using via our we is are was were this that these "
    "approaches approach methods method such like e.g. i.e. including namely two three both".split())
_NOT_METHOD_LONG = re.compile(
    r"(?:decision process(?:es)?|bandits?|games?|problems?|settings?|equations?|spaces?|distributions?|"
    r"conditions?|assumptions?)$", re.IGNORECASE)
_NEURAL_EQUATION = re.compile(r"\bneural\b.*\bequations?$", re.IGNORECASE)
_NAMED_BEFORE = re.compile(
    r"(?:(?:we call|called|dubbed|named|termed|we denote|denoted as|namely|"
    r"we refer to (?:it|them|this|these) as)\s+(?:as\s+)?(?:the\s+|our\s+)?|"
    r"\b(?:the|our)\s+(?:(?:newly\s+)?proposed|novel)\s+|\bour\s+(?:new\s+)?|"
    # "For our model, Markovian GPVAE (MGPVAE)", "Our approach, Project and Probe (PP)"
    r"\bour\s+(?:[\w-]+\s+){0,2}?(?:model|method|approach|framework|algorithm|architecture|system|dataset|"
    r"benchmark|technique|estimator|network)\s*(?:,|:|--|—)\s*)(?:``|[\"“'‘])?$",
    re.IGNORECASE)
# a problem, setting or theory named right before a long form: the name is the setting's, not a method's
_NAMED_SETTING = re.compile(
    r"\b(?:problem|task|setting|scenario|theory|notion|concept|phenomenon|condition|metric|measure|score|"
    r"quantity|property|bound|game)s?\s*,?\s*(?:(?:which|that)\s+(?:is|are)\s+|(?:is|are)\s+)?"
    rf"(?:called|named|termed|dubbed|namely|known\s+as|referred\s+to\s+as)\s+(?:as\s+)?(?:the\s+)?[\"“'‘`]*$",
    re.IGNORECASE)
# the setting's noun inside a method's phrase: "our framework for differentiable game problems, dubbed X"
_HEAD_OF_BEFORE = re.compile(rf"\b(?:{_METHOD_HEADS}|{_BENCH_HEADS})\s+(?:for|of|on|to|in)\s+(?:[\w-]+\s+){{0,4}}$",
                             re.IGNORECASE)


def _names_a_setting(text: str, pos: int) -> bool:
    """Is the name at ``pos`` given to a problem, setting, theory or measure right before it ("a new
    CZSL setting, named X", "as a new learning problem, namely X"), not to a method whose phrase
    merely mentions one ("our framework for game problems, dubbed X")?"""
    m = _NAMED_SETTING.search(text, max(0, pos - 60), pos)
    return m is not None and _HEAD_OF_BEFORE.search(text, max(0, m.start() - 60), m.start()) is None


_IN_URL = re.compile(r"(?:https?://|www\.|github\.com)\S*$")
_NONE_AFTER = re.compile(rf"\s*(?:\([^()]{{1,20}}\)\s*)?(?:(?:{_NONE_HEADS})s?|hypothes[ie]s|paradox(?:es)?)\b",
                         re.IGNORECASE)
_NONE_HEAD_NEXT = re.compile(rf"\)?\s*(?:(?:{_NONE_HEADS})s?|hypothes[ie]s|paradox(?:es)?)\b", re.IGNORECASE)
_UNNAMED_OBJECT = re.compile(
    rf"\s+(?:a|an|the|two|three)\s+(?:[\w-]+\s+){{0,4}}?(?:{_METHOD_HEADS}|{_BENCH_HEADS})\b", re.IGNORECASE)
# a verb after the name ("X learns"), not a plural noun it modifies ("RGB-D observations")
_NAME_THEN_VERB = re.compile(r"\s*(?:\([^()]{1,20}\)\s*)?(?:,\s*)?(?:[a-z]+ly\s+)?"
                             r"(?![a-z]+(?:ions|ments|ities|ances|ences|nesses|ures|ings)\b)[a-z]+s\b")
#: rules strong enough for a name written with inline math
# one word in neither lower, Title, CamelCase nor upper case (a plural "s" aside): "MODeL", "STaR",
# "ZeRO", "SimplE", "DiCE" (not "AutoEncoder", "LLMs", "mAP")
_ODD_CASE = re.compile(r"(?=[A-Z]+[a-z])(?![A-Z][a-z]+(?:[A-Z][a-z]+)*$)(?![A-Z]+s$)[A-Z][A-Za-z]*[A-Z][A-Za-z]*")
# the authors' own head noun right before "called"/"named": "a new dataset", "our method", "a novel
# two-stage framework," (a few modifiers between)
_OWN_HEAD_BEFORE = re.compile(rf"(?:\b[Oo]ur|\b[Aa]n?\s+(?:new|novel)|\b[Tt]he\s+(?:new|novel|proposed))\s+"
                              rf"(?:[\w-]+\s+){{0,3}}?(?:{_METHOD_HEADS}|{_BENCH_HEADS})s?,?\s*$", re.IGNORECASE)
_MATH_NAME_RULES = frozenset(("propose", "propose_head", "called", "appositive", "passive", "our"))
# a font command around a letter is part of a math name ("$\\mathbb{D}^2$ Pruning", one span with its
# markup); a capitalised word may follow the math ("Pruning")
_MATH_FONT = r"\\(?:mathbb|mathcal|mathbf|mathrm|mathsf|mathfrak|mathscr|boldsymbol|text|textsf|texttt|textrm|operatorname)\{"
_MATH_NAME = re.compile(rf"(?:[\w+-]|\$|\^|_\{{|{_MATH_FONT}|(?<=[\w^])\}}|\\(?:{GREEK_LETTERS})(?![A-Za-z]))+"
                        rf"(?:\s[A-Z][\w-]*+){{0,2}}")
_GREEK_START = re.compile(rf"(?:{GREEK_LETTERS})(?![a-z])")
_GREEK_COMMAND = re.compile(rf"\\({GREEK_LETTERS})(?![A-Za-z])")
#: Unicode letters of the Greek letter commands (for readable names: "$\\omega$GNN" is "ωGNN")
_GREEK_CHARS = dict(zip(GREEK_LETTERS.split("|"), "αβγδεεζηθθικλμνξπρστυφφχψωΓΔΘΛΞΠΣΥΦΨΩ"))
_MATH_FONT_BEFORE = re.compile(rf"\$?{_MATH_FONT}$")
_SENT_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"“])|\n+")


@dataclass(slots=True)
class _Cand:
    start: int  # original text offsets, end exclusive
    end: int
    label: str
    role: str
    rule: str
    canonical: str | None = None
    priority: int = 0


#: the head nouns of the named parts of a system, and a Title-Case name ending in one (one
#: lower-case word allowed: "Spatial guided Global Convolution Module")
_OWN_PART_HEAD = re.compile(r"(?:Module|Block|Layer)s?\b")
_OWN_PART_NAME = re.compile(
    r"(?=[^ ]+(?: [^ ]+)+$)(?:[A-Z][\w-]*\s+)*(?:[a-z][\w-]*\s+)?(?:[A-Z][\w-]*\s+)*(?:Module|Block|Layer)s?")
_OTHERS_SYSTEM = re.compile(r"\b(?:[Ee]xisting|[Pp]revious|[Pp]rior|[Cc]onventional|[Tt]raditional|[Tt]ypical|"
                            r"[Ss]tandard|[Cc]urrent|[Pp]opular|[Mm]ainstream)\b")
_WE_OR_OUR = re.compile(r"\b(?:[Ww]e|[Oo]ur|propos\w*)\b")


@lru_cache(maxsize=1 << 16)
def _abbreviation_label(long: str, title_case: bool) -> str | None:
    """Type of an abbreviation's long form from its head noun, or None (not a method/benchmark).

    Lower-case long forms need a technique head ("kernel density estimation"); Title-Case ones
    also a method or benchmark head noun ("Gated Linear Unit", "Learning Rate Rewinding").
    Paradigms ("... learning") never are.
    """
    words = long.split()
    if not words:
        return None
    head = words[-1]
    if _NEURAL_EQUATION.search(long):
        return METHOD  # "neural controlled differential equations": a model family, not an equation
    # "... Learning" is a paradigm; a learner too, unless a Title-Case name ("Strongly Adaptive Bandit Learner")
    learner = head.lower() in ("learner", "learners") and not (title_case and head[0].isupper())
    if head.lower() == "learning" or learner or _NOT_METHOD_LONG.search(long) or _NONE_LAST_WORD.search(" " + long):
        return None
    if head.lower() in ("approaches", "techniques", "frameworks", "systems"):
        return None  # a family of methods, not one
    if head.lower() == "adaptation" and _FIELD_END.search(long):
        return None  # "Open Set Domain Adaptation (OSDA)", "Test-Time Adaptation (TTA)": a setting
    if title_case and head.lower() in ("test", "tests", "suite", "arena", "gym", "bench"):
        return BENCHMARK
    # the head is the last part of a hyphenated word: "collection-elimination" is no collection
    label = _head_label(head.rsplit("-", 1)[-1])
    if label == BENCHMARK:
        return BENCHMARK
    if _TECH_HEAD.match(head) or (title_case and _WEAK_TECH_HEAD.match(head)):
        return METHOD
    if label == METHOD and (title_case or head.lower() not in ("model", "models", "system", "systems", "framework")):
        return METHOD
    return None


@lru_cache(maxsize=1 << 16)
def _head_label(head: str) -> str | None:
    m = _HEAD_RE.search(head)
    if m is None:
        return None
    if m.group("b"):
        return BENCHMARK
    if m.group("m"):
        return METHOD
    return None


def _lower_phrase_is_no_name(phrase: str, words: list[str], gaz: Gazetteer) -> bool:
    """The guards every lower-case proposal rule shares: a phrase that opens with a stop word, is
    generic, a paradigm, a phenomenon, a property ("-ity", "-ness") or ends in a word that names
    no method is a description, not the paper's name."""
    return bool(words[0] in _LOWER_PROPOSAL_STOP or gaz.is_stop(phrase) or _GENERIC_CLASS.search(phrase)
                or _PARADIGM_END.search(phrase) or _NONE_LAST_WORD.search(" " + phrase)
                or _PHENOMENON_END.search(phrase) or phrase.endswith(("ity", "ness", "ncy", "acy")))


def _lower_names_after(pattern: re.Pattern[str], ct: str, ends: Iterable[int],
                       reach: int) -> Iterator[tuple[int, re.Match[str], str, list[str]]]:
    """Each match of ``pattern`` right at one of ``ends`` (within ``reach`` characters), with its
    ``name`` group and that group's words."""
    for pe in ends:
        lm = pattern.match(ct, pe, min(len(ct), pe + reach))
        if lm is not None:
            phrase = lm.group("name")
            yield pe, lm, phrase, phrase.split()


class EntityRecognizer:
    """Find methods and benchmarks; see the module docstring.

    Parameters
    ----------
    nlp, name
        The pipeline and the component's name.
    spans_key
        The ``doc.spans`` key written.
    labels
        Which labels to keep (``("METHOD", "BENCHMARK")`` by default).
    gazetteer
        Path of a gazetteer JSON file; ``None`` uses the shipped one.
    """

    def __init__(self, nlp: Language, name: str = "paperkg_entities", *, spans_key: str = SPANS_KEY,
                 labels: Iterable[str] = (METHOD, BENCHMARK), gazetteer: str | None = None) -> None:
        self.name = name
        self.spans_key = spans_key
        self.labels = tuple(labels)
        self.vocab = nlp.vocab
        self._tokenizer = nlp.tokenizer
        self._set_gazetteer(load_gazetteer(gazetteer))
        #: False: the spans as plain ``(start_char, end_char, label)`` in
        #: ``doc.user_data[PLAIN_SPANS_KEY]`` instead of ``doc.spans``; :func:`extractors.pipeline.extract_raw`
        #: sets it while it runs (it reads them with :func:`entities_from_doc` only, and its Docs never
        #: leave it), as building a ``Span`` per name and reading it back is slow.
        self.make_spans = True

    # ---------------------------------------------------------------- data
    def _set_gazetteer(self, gaz: Gazetteer) -> None:
        self.gazetteer = gaz
        self._name_cache: dict[tuple[str, bool], bool] = {}
        self._entry_of: dict[int, int] = {}  # match id -> gazetteer entry index
        self.matcher_orth = PhraseMatcher(self.vocab, attr="ORTH")
        self.matcher_lower = PhraseMatcher(self.vocab, attr="LOWER")
        for i, ci, keywords in phrase_patterns(gaz, self._tokenizer):
            (self.matcher_lower if ci else self.matcher_orth).add(f"gaz{i}", keywords)

    def initialize(self, get_examples: Callable[[], Iterable[Any]] | None = None, *,
                   nlp: Language | None = None, patterns: dict[str, Any] | str | Path | None = None) -> None:
        """Load a gazetteer: a dict in the ``gazetteer.json`` form, a path to one, or the shipped one."""
        if patterns is None:
            self._set_gazetteer(load_gazetteer(None))
        elif isinstance(patterns, (str, Path)):
            self._set_gazetteer(load_gazetteer(str(patterns)))
        else:
            self._set_gazetteer(Gazetteer.from_data(patterns))

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        p = Path(path)
        p.mkdir(parents=True, exist_ok=True)
        (p / "gazetteer.json").write_text(json.dumps(self.gazetteer.to_data(), ensure_ascii=False), encoding="utf-8")

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> "EntityRecognizer":
        p = Path(path) / "gazetteer.json"
        if p.exists():
            self._set_gazetteer(Gazetteer.from_data(json.loads(p.read_text(encoding="utf-8"))))
        return self

    # ---------------------------------------------------------------- checks
    def _known_token(self, tok: str) -> bool:
        return self.gazetteer.lookup(tok) is not None

    def _known_with_tail(self, tok: str) -> str | None:
        """The label of a one-token name the phrase matchers cannot see: a known model with
        hyphen-joined sizes, context lengths or versions after it ("Yi-6B-200k",
        "Llama-3-8B-Instruct-262k"), or a known code with a number in Title case ("Cifar-10")."""
        if len(tok) > _MAX_NAME_LEN:
            return None  # (and a bound on the prefixes looked up)
        gaz = self.gazetteer
        code = gaz.lookup_recased_code(tok)
        if code is not None:
            return METHOD if code.type == "method" else BENCHMARK
        k = tok.rfind("-")
        while k >= 2:
            head = gaz.lookup(tok[:k])
            if head is not None:
                tail = tok[k + 1:].split("-")
                if head.type == "method" and all(_RELEASE_PART.fullmatch(p) for p in tail) \
                        and any(c.isdigit() for c in tok[k + 1:]):
                    return METHOD
                return None
            k = tok.rfind("-", 0, k)
        return None

    def is_name(self, text: str, *, loose: bool = False) -> bool:
        """Does ``text`` look like a coined name (not a metric, generic word or markup)?

        ``loose`` also accepts one capitalised word ("Tango"), for strong contexts. The answer
        depends on the text and the gazetteer only, so it is remembered (the same words recur
        in every abstract).
        """
        key = (text, loose)
        hit = self._name_cache.get(key)
        if hit is None:
            if len(self._name_cache) > 200_000:
                self._name_cache.clear()
            hit = self._name_cache[key] = self._is_name(text, loose)
        return hit

    def _is_name(self, text: str, loose: bool) -> bool:
        t = text.strip()
        if not 2 <= len(t) <= 60 or not (t[0].isalpha() or _DIGIT_NAME.fullmatch(t)):
            return False  # a name starts with a letter, or is "3D-MoIT", "2D-Shapley"
        if t[0].islower() and (" " not in t and not _CAMEL.search(t) and not _LOWER_PREFIX_NAME.match(t)
                               or "-to-" in t):
            return False  # "text-to-3D" names a task
        if _LATEX.search(t) or _LONG_CAPS.search(t) or _NUMBER_FORMAT.fullmatch(t):
            return False
        if _ODD_CASE.fullmatch(t) and self.gazetteer.is_common_word(t) and t.lower() not in self.gazetteer.metrics:
            return True  # an English word spelt in a case of its own is coined ("MODeL", "STaR", "ZeRO")
        if self.gazetteer.is_stop(t) or not (t[0].isalpha() or _DIGIT_NAME.fullmatch(t)):
            # an English word written in capitals is a coined name in a naming context ("named
            # TEST", "TEST: ..."), not a stop word: loose mode only
            return loose and len(t) >= 4 and t.isalpha() and t.isupper() and self.gazetteer.is_common_word(t)
        words = t.split()
        if len(words) > 1:
            # a Title-Case phrase: every content word capitalised
            content = [w for w in words if w.lower() not in _CONNECTORS]
            return len(content) >= 2 and all(w[0].isupper() or w[0].isdigit() for w in content) and not any(
                self.gazetteer.is_stop(w) and w.isupper() for w in content[-1:])
        core = t[:-1] if len(t) > 2 and t.endswith("s") and t[-2].isupper() else t
        letters = [c for c in core if c.isalpha()]
        if core.isupper() and len(letters) <= 2 and not any(c.isdigit() for c in core):
            return False
        inner = any(c.isupper() for c in core[1:]) or any(c.isdigit() for c in core)
        if inner:
            return True
        if "-" in core and all(p[:1].isupper() for p in core.split("-") if p):
            return True
        return loose and core[0].isupper() and len(core) >= 3 and not self.gazetteer.is_common_word(core)

    # ---------------------------------------------------------------- main
    def __call__(self, doc: Doc) -> Doc:
        text = doc_text(doc)
        view = doc_view(doc)
        defs = definitions_of(doc) if "paperkg_abbreviation_defs" in doc.user_data else find_definitions(text, view)
        coined = _coined_tokens(view.text)
        cands = self._find(doc, text, view, defs, coined)
        self._set_annotations(doc, text, view, cands, defs, coined)
        return doc

    def _find(self, doc: Doc, text: str, view: CleanView, defs: list[Definition],
              coined: list[tuple[int, int]]) -> list[_Cand]:
        ct = view.text
        out: list[_Cand] = []
        gaz = self.gazetteer
        known_proposals: dict[str, set[str]] = defaultdict(set)
        metric_names: set[str] = set()

        long_spans = [(d.long_start, d.long_end) for d in defs]

        def add(cs: int, ce: int, label: str, role: str, rule: str, priority: int, *,
                loose: bool = False) -> None:
            if " and " in ct[cs:ce]:
                items = _list_items(ct, cs, ce)
                if len(items) > 1 and all(" " not in ct[a:b] and self.is_name(ct[a:b]) for a, b in items):
                    for a, b in items:  # "named DFedSAM and DFedSAM-MGS": two names, not one phrase
                        add_one(a, b, label, role, rule, priority, loose)
                    return
            add_one(cs, ce, label, role, rule, priority, loose)

        # Not part of ``add``: a function that calls itself through its closure is a reference
        # cycle, which left ~24 objects per abstract for the garbage collector (0.3 s a corpus pass).
        def add_one(cs: int, ce: int, label: str, role: str, rule: str, priority: int, loose: bool) -> None:
            cs, ce = _trim_modifier(ct, cs, ce)
            if ct.endswith(("'s", "’s"), cs, ce):
                ce -= 2  # "Alpaca's 52k data"
            if ce <= cs or (cs > 0 and ct[cs - 1] in "\\^_/=@#:.") or _IN_URL.search(ct, max(0, cs - 80), cs) \
                    or ct.find("\n", cs, ce) >= 0:  # a name never runs from the title into the abstract
                return
            s, e = view.span_to_orig(cs, ce)
            name = ct[cs:ce]
            raw = text[s:e]
            if s and text[s - 1] == "{" and rule in _MATH_NAME_RULES:
                fm = _MATH_FONT_BEFORE.search(text, max(0, s - 16), s)
                if fm is not None:  # "$\\mathbb{D}^2$ Pruning": the span covers the opening markup
                    s = fm.start()
                    while text.count("{", s, e) > text.count("}", s, e) and e < len(text) and text[e] == "}":
                        e += 1  # and its closing brace ("$\\mathsf{READ}$")
                    raw = text[s:e]
            if "$" in raw or "\\" in raw or "^" in raw or (s and text[s - 1] in "$\\"):
                # a name written with inline math ("PILOT$^+$", "G-$\\Delta$UQ", "$S^3$") only right
                # after a naming cue: elsewhere math is a variable ("the matrix $X^TX$")
                if rule not in _MATH_NAME_RULES or _MATH_NAME.fullmatch(raw) is None \
                        or _GREEK_ONLY.fullmatch(name) is not None:
                    return
                if s and text[s - 1] == "\\" and _GREEK_START.match(text, s):
                    s -= 1  # "$\\omega$GNN": the span covers the letter's backslash and its "$"
                while text.count("{", s, e) > text.count("}", s, e) and e < len(text) and text[e] == "}":
                    e += 1  # "$k\\text{NN-ECD}$": the span closes the font's brace before its "$"
                s, e = _balance_dollars(text, s, e)
            if long_spans and any(s < le and ls < e and (s, e) != (ls, le) for ls, le in long_spans):
                return  # overlaps an abbreviation's long form: the definition rule types the whole
            entry = gaz.lookup(name)
            if entry is not None and name.islower() and not any(
                    f.islower() for f in (entry.name, *entry.aliases) if entity_key(f) == entity_key(name)):
                entry = None  # "math benchmarks" is not MATH
                if rule in ("bench_head", "bench_list", "method_head"):
                    return
            if entry is None and not self.is_name(name, loose=loose) and not (
                    rule == "propose" and role == PROPOSED and _OWN_STOP_NAME.fullmatch(name) and gaz.is_stop(name)
                    and _FOLLOWED_BY_PUNCT.match(ct, ce)):
                # a stop word in capitals that the authors name their own thing ("we introduce
                # SAT, a ... dataset") is their name in this paper: the stoplist is for other uses
                return
            if entry is None and loose and rule not in ("bench_head", "bench_list", "cited", "our", "quoted_data") \
                    and not self.is_name(name) and not _FOLLOWED_BY_PUNCT.match(ct, ce):
                return  # one capitalised word is a name only when the phrase ends there ("Tango, a ...")
            if entry is None and _NONE_LAST_WORD.search(name):
                return  # "Low-Norm Effect", "Generative AI Paradox"
            if entry is None and "-" in name and name.rsplit("-", 1)[1].islower() and gaz.is_stop(name.split("-", 1)[0]):
                return  # "RL-training", "LLM-generated": a generic word and a modifier
            if entry is None and "-" in name:
                base = gaz.lookup(name.split("-", 1)[0])
                if base is not None and base.type == "benchmark" and not _MODEL_SIZE_TOKEN.fullmatch(name):
                    label = BENCHMARK  # "ImageNet-Subset"
            if entry is not None:
                # a known name is the paper's own only when two proposal rules say so ("We propose
                # Sophia, a ..." and the title); the gazetteer knows its type
                if role == PROPOSED:
                    known_proposals[entity_key(name)].add(rule)
                    vm = _SIZE.match(ct, ce) or (None if name[-1:].isdigit() else _VERSION_AFTER.match(ct, ce))
                    if rule == "propose" and (vm is not None or _VERSION_GLUED.search(name)):
                        # "We present OLMo 2, ...", "we release Mistral 7B": a known family with its
                        # version or size right after a proposal verb is the paper's own release
                        vend = ce if vm is None else vm.end("v") if "v" in vm.re.groupindex else vm.end()
                        known_proposals[entity_key(ct[cs:vend])].update((rule, "versioned"))
                role = USED
                label = METHOD if entry.type == "method" else BENCHMARK
            out.append(_Cand(s, e, label, role, rule, _canonical(gaz, name), priority))

        def add_list_tail(pos: int, label: str, role: str, rule: str, priority: int) -> None:
            """The names that continue a list after a first one ("X, Y and Z"): coined shapes only."""
            for _ in range(4):
                lm = _LIST_NEXT.match(ct, pos)
                if lm is None or not self.is_name(lm.group("name")) or gaz.lookup(lm.group("name")) is not None:
                    return
                add(lm.start("name"), lm.end("name"), label, role, rule, priority)
                pos = lm.end("name")

        # proposal contexts
        proposal_ends: list[int] = []
        unnamed: list[int] = []
        for pend in _proposal_ends(ct):
            proposal_ends.append(pend)
            n_before = len(out)
            a = _AFTER_VERB.match(ct, pend)
            if a:
                ns, ne = a.span("name")
                vm = _SIZE.match(ct, ne) or _VERSION_AFTER.match(ct, ne) if gaz.lookup(a.group("name")) \
                    else _DECIMAL_VERSION.match(ct, ne)  # "we introduce EigenPro 3.0, an algorithm ..."
                if vm is not None:  # "we release Llama 2, ...": a known family with its version or size
                    ne = vm.end("v") if "v" in vm.re.groupindex else vm.end()
                follow = ct[ne:ne + 30]
                strict = self.is_name(ct[ns:ne])
                modifier = _FOLLOWED_BY_NOUN.match(follow) is not None
                if (strict or _FOLLOWED_BY_PUNCT.match(follow)) and not modifier \
                        and not self._head_is_none(ct, ne) \
                        and not any(d.long_start <= view.to_orig(ns) < d.long_end for d in defs):
                    label = self._label_after(ct, ne) or METHOD
                    ne = self._cut_at_tool(ct, ns, ne)
                    for ls, le in _list_items(ct, ns, ne):
                        add(ls, le, label, PROPOSED, "propose", 5, loose=True)
                    if ns == a.start("name") and (_INDEFINITE_APPOSITION.match(ct, ne) or _RELATIVE_AFTER.match(ct, ne)
                                                  and ct.endswith(_BARE_VERBS, max(0, pend - 10), pend)):
                        # "We introduce iTransformer, a forecaster that ...": the verb and an
                        # indefinite appositive are two proposal cues, enough for a known name too; so
                        # are "propose/introduce" and a relative clause ("we propose MONet, which relies on")
                        known_proposals[entity_key(ct[ns:ne])].add("appositive")
                elif strict and modifier:
                    self._name_before_head(ct, ns, ne, pend, defs, add)
                    # the noun phrase may still be named after its head ("a practical X algorithm
                    # for Y, Long Form (LF)"): for that, this proposal counts as unnamed below
                    n_before = len(out)
            av = _AFTER_VERB_ADJ.match(ct, pend)
            if av and self.is_name(av.group("name")) and _CAMEL.search(av.group("name")):
                add(av.start("name"), av.end("name"), self._label_after(ct, av.end("name")) or METHOD,
                    PROPOSED, "propose", 5)
            hb = _AFTER_VERB_HEAD_BARE.match(ct, pend)
            if hb and self.is_name(hb.group("name")) and gaz.lookup(hb.group("name")) is None:
                add(hb.start("name"), hb.end("name"), _head_label(hb.group("head")) or METHOD, PROPOSED,
                    "propose_head", 5)
            elif hb and _NOVELTY.search(ct, pend, hb.start("head")) and not _earlier_work_sentence(ct, pend):
                # "we release a new 2 billion example dataset DFN-2B": a known name right after a
                # proposal verb and "a new/novel/first ... <head noun>": two proposal cues, as for a
                # definition ("we propose the first X (ABC)")
                add(hb.start("name"), hb.end("name"), _head_label(hb.group("head")) or METHOD, PROPOSED,
                    "propose_head", 5)
                known_proposals[entity_key(hb.group("name"))].add("novelty")
            va = _VERSION_APPOSITION.match(ct, pend, min(len(ct), pend + 160))
            if va and self.is_name(va.group("name")) and gaz.lookup(va.group("name")) is None:
                add(va.start("name"), va.end("name"), METHOD, PROPOSED, "propose_head", 5)
            ht = _AFTER_VERB_HEAD_TITLE.match(ct, pend) if hb is None else None
            if ht and gaz.lookup(ht.group("name")) is None:
                add(ht.start("name"), ht.end("name"), _head_label(ht.group("head")) or METHOD, PROPOSED,
                    "propose_head", 5, loose=True)
            pl = _AFTER_VERB_PLURAL_LIST.match(ct, pend, min(len(ct), pend + 160))
            if pl and self.is_name(pl.group("name")) and gaz.lookup(pl.group("name")) is None:
                # "we design ... efficient algorithms DouExpDes and C-DouExpDes, which ...": no article
                # before a plural head, then the coined names of what was made
                label = _head_label(pl.group("head")) or METHOD
                add(pl.start("name"), pl.end("name"), label, PROPOSED, "propose_head", 5)
                add_list_tail(pl.end("name"), label, PROPOSED, "propose_head", 5)
            h = _AFTER_VERB_HEAD.match(ct, pend)
            if h:
                label = _head_label(h.group("head")) or METHOD
                add(h.start("name"), h.end("name"), label, PROPOSED, "propose_head", 5, loose=True)
                if h.group("head").lower().endswith("s"):  # "two ... algorithms, SCALLION and SCAFCOM"
                    add_list_tail(h.end("name"), label, PROPOSED, "propose_head", 5)
            for ls, le, lab in self._colon_list(ct, pend):
                add(ls, le, lab, PROPOSED, "propose_head", 5)
            hp = _AFTER_VERB_HEAD_PAREN.match(ct, pend)
            if hp and _NOVELTY.search(ct, pend, hp.start("head")) and not _earlier_work_sentence(ct, pend):
                items = [(m.start(), m.end()) for m in _PAREN_ITEM.finditer(hp.group("list"))]
                names = [hp.group("list")[a:b] for a, b in items]
                # every item a name, and the names (with their separators) the whole parenthesis: one
                # of words or numbers is a gloss ("(about 5,000 images)"), not a list of names
                if len(names) >= 2 and all(self.is_name(n) for n in names) \
                        and len("".join(names)) + 2 * len(names) >= len(hp.group("list").replace(" and ", "")) - 2:
                    label = _head_label(hp.group("head")) or METHOD
                    for (a, b), n in zip(items, names):
                        add(hp.start("list") + a, hp.start("list") + b, label, PROPOSED, "propose_head", 5)
                        known_proposals[entity_key(n)].add("novelty")
            mk = self._modified_known(ct, pend)
            if mk is not None:
                out.append(_Cand(*view.span_to_orig(*mk), METHOD, PROPOSED, "propose_variant", None, 5))
            if len(out) == n_before and _UNNAMED_OBJECT.match(ct, pend):
                unnamed.append(pend)
        for m in (_EXTEND.finditer(ct) if any(w in ct for w in _EXTEND_WORDS) else ()):
            add(m.start("name"), m.end("name"), METHOD, PROPOSED, "extend", 4)
        for m in (_called_matches(ct) if any(w in ct for w in _CALLED_WORDS) else ()):
            label = self._label_before(ct, m.start("name")) or METHOD
            name = m.group("name")
            k = m.end("name")
            while k < len(ct) and ct[k] in " '\"”":
                k += 1
            role = USED if _CITATION.match(ct, k) else PROPOSED  # "termed X (Olsson et al., 2022)": cited
            if role == PROPOSED and (_CITED_AFTER.match(ct, k) or _ADOPTED_BEFORE.search(
                    ct, max(0, m.start() - 60), m.start()) and not _NOVELTY.search(ct, max(0, m.start() - 60), m.start())
                    and not _WE.search(m.group(0))):  # ("an approach to using VLMs ..., which we call X": theirs)
                role = USED  # "called GLM-tron [Kakade et al. 2011]", "called X, previously proposed in ...",
                # "this paper adopts a class of models termed X", "we analyze an algorithm called X"
            trigger = m.group(0)[:m.start("name") - m.start()].lower()
            if _names_a_setting(ct, m.start("name")):
                continue  # "a new learning problem, namely Noisy Multi-label Learning": the setting's name
            sent = ct[max(0, m.start() - 60):m.start()]
            sent = sent[sent.rfind(". ") + 1:]
            # "given an existing baseline, an algorithm termed X": the marker modifies another phrase
            clause = sent[sent.rfind(", ") + 1:]
            if _EARLIER_WORK.search(clause) or _earlier_work_sentence(ct, m.start("name")):
                role = USED  # "a recently proposed algorithm called GraB"
            if name.islower() and not trigger.startswith(("namely", "denote")):
                # "and call this approach consistency fine-tuning.": a lower-case name of at most four
                # words ending the clause, after a naming verb of the authors or a method head noun;
                # it starts after the head noun of "this approach"
                ps = m.start("name")
                hs = list(_HEAD_RE.finditer(ct, m.start(), ps))
                if hs:
                    ps = hs[-1].end()
                    while ps < len(ct) and ct[ps] == " ":
                        ps += 1
                strong = _STRONG_NAMING.search(trigger) is not None
                # a quoted name after "called" is a name the authors give ("a framework for ..., called
                # ``x y''") when a method or benchmark head noun comes earlier in the sentence
                quoted = trigger.rstrip().endswith(("``", '"', "“")) and trigger.lstrip().startswith(
                    ("called", "named", "dubbed", "termed", "coined")) and self._label_before(
                    ct, m.start(), window=200) is not None

                in_quotes = trigger.rstrip().endswith(("``", '"', "“", "'"))
                # "a ... dataset from course notes, named uprover": a head noun earlier in the
                # sentence, then "called/named" and one word that is no English word nor a known name
                headed = trigger.lstrip().startswith(("called", "named")) and self._label_before(
                    ct, m.start(), window=200) is not None

                def lower_ok(phrase: str) -> bool:
                    # one plain English word is a term, not a name ("... which we call categories"),
                    # unless quotes mark it as a name ("which we call a ``bridge''")
                    return (" " in phrase or "-" in phrase or (strong or quoted)
                            and (in_quotes or not gaz.is_common_word(phrase))
                            or headed and len(phrase) >= 4 and not gaz.is_common_word(phrase)
                            and gaz.lookup(phrase) is None) \
                        and not any(w in _PHRASE_STOP for w in phrase.split()) \
                        and not gaz.is_stop(phrase) and not _GENERIC_CLASS.search(phrase) \
                        and not _NONE_LAST_WORD.search(" " + phrase) \
                        and not phrase.endswith(("ity", "ness", "ncy", "acy")) and not _PHENOMENON_END.search(phrase) \
                        and not _PARADIGM_END.search(phrase) and not _NOT_METHOD_LONG.search(phrase)

                context_ok = (strong or quoted or self._label_before(ct, m.start()) is not None) \
                    and not _CHALLENGE_BEFORE.search(sent) and _gap_head(ct[max(0, m.start() - 60):m.start()]) != "n"
                lp = _LOWER_NAME.match(ct, ps)
                if lp is not None and context_ok and lower_ok(lp.group(0)):
                    out.append(_Cand(*view.span_to_orig(lp.start(), lp.end()), label,
                                     USED if _CITED_AFTER.match(ct, lp.end()) else role, "called", None, 4))
                    continue
                pair = _LOWER_PAIR.match(ct, ps) if strong and lp is None else None
                if pair is not None and context_ok and lower_ok(pair.group("a")) and lower_ok(pair.group("b")):
                    # "two additions, which we refer to as gradient tempering and anchor replay."
                    for g in ("a", "b"):
                        out.append(_Cand(*view.span_to_orig(*pair.span(g)), label, role, "called", None, 4))
                    continue
            if ("-" in name and name.islower() and not trigger.startswith("namely")
                    and _FOLLOWED_BY_PUNCT.match(ct, m.end("name")) and not gaz.is_stop(name)):
                # "a decoding algorithm we call equilibrium-ranking."
                out.append(_Cand(*view.span_to_orig(m.start("name"), m.end("name")), label, role, "called", None, 4))
                continue
            if len(name) == 2 and name.isupper() and _FOLLOWED_BY_PUNCT.match(ct, m.end("name")) \
                    and not gaz.is_stop(name) and not trigger.startswith(("namely", "denote")):
                # "a new approach called DG."
                out.append(_Cand(*view.span_to_orig(m.start("name"), m.end("name")), label, role, "called", None, 4))
                continue
            if _NONE_AFTER.match(ct, m.end("name")):
                continue
            add(m.start("name"), m.end("name"), label, role, "called", 4,
                loose=not m.group(0).lower().startswith("namely"))
            if role == PROPOSED and _STRONG_NAMING.search(trigger) and (_WE.search(sent) or _WE.search(trigger)
                                                                          and _NAMING_END.search(trigger)):
                # "we propose X, which we dub NAME": the authors naming a thing is their own even when
                # the gazetteer knows the name now (from this very paper); "called"/"namely" are weaker.
                # The authors may speak in the trigger itself ("The agent, which we refer to as Gato"),
                # when the name follows the naming verb (not "as the prescriptive ReLU network": a
                # known word inside a longer name)
                known_proposals[entity_key(name)].add("naming")
            elif role == PROPOSED and trigger.lstrip().startswith(("called", "named")) \
                    and _OWN_HEAD_BEFORE.search(ct, max(0, m.start() - 60), m.start()) is not None:
                # "a new dataset called X", "our method, named X": the authors' own head noun names
                # their thing, even when the gazetteer knows the name now (from this very paper)
                known_proposals[entity_key(name)].add("naming")
            add_list_tail(m.end("name"), label, role, "called", 4)
        title_end = ct.find("\n\n")
        for am in _anchored_finditer(_APPOS_ANCHOR, ct, _APPOS_ANCHORS, _APPOS_ANCHORS_AFTER):
            nm = _APPOS_NAME_END.search(ct, max(0, am.start() - 70), am.start())
            if nm is None:
                continue
            if nm.start() > 0 and am.start() < title_end and am.group(0).startswith(":"):
                continue  # "Bridging Gaps: A ... Dataset": only a title's first words name it (rule "title")
            m = _APPOSITIVE.match(ct, nm.start())
            if m is None:
                continue
            head = m.group("head")
            label = _head_label(head)
            if label is None:
                if _METRIC_HEAD.fullmatch(head) and m.group("det").lower() in ("a", "an") \
                        and _METRIC_END.match(ct, m.end("head")):
                    metric_names.add(entity_key(m.group("name")))  # "X, a new metric for ...": no entity
                continue
            mods = m.group("mods") or ""
            if head.lower() == "suite" and "benchmark" in mods.lower():
                label = BENCHMARK
            role = USED if _USED_MODS.search(mods) else PROPOSED
            before = ct[max(0, m.start() - 2):m.start()]
            mid_sentence = m.start() > 0 and not _SENTENCE_START_BEFORE.search(before)
            loose = role == PROPOSED and m.group("det").lower() in ("a", "an") and mid_sentence
            add(m.start("name"), m.end("name"), label, role, "appositive", 4, loose=loose)
        t = _TITLE_NAME.match(ct)
        sep = ct.find("\n\n")
        abstract = ct[sep:] if sep >= 0 else ""
        # the title's one-word name in the abstract spelt otherwise ("Crystal: ..." / "CRYSTAL") or
        # with a size or version ("Zephyr: ..." / "Zephyr-7B"): the abstract repeats it too
        respelt = _respellings(abstract, t.group("name")) if t and sep >= 0 and " " not in t.group("name") \
            and t.group("name").replace("-", "").isalpha() and t.group("name")[:1].isupper() \
            and not _STUDY_SUBTITLE.match(t.group("rest")) else ([], False)
        if t and (" " not in t.group("name") and self.is_name(t.group("name"))
                  or sep >= 0 and t.end("name") < sep and (_word_in(abstract, t.group("name")) or respelt[0] or respelt[1])
                  and all(w[:1].isupper() or w[:1].isdigit() for w in t.group("name").split())):
            # "Name: subtitle"; a plain word or two-word name counts when the abstract repeats it
            label = _title_rest_label(t.group("rest")) or METHOD
            if _head_label(t.group("name").split()[-1]) == METHOD:
                label = METHOD  # "Regularization Learning Networks: ...": the name's own head decides
            add(t.start("name"), t.end("name"), label, PROPOSED, "title", 4, loose=True)
            tname = t.group("name")
            for rs, re_ in respelt[0]:
                add(sep + rs, sep + re_, label, PROPOSED, "title", 4, loose=True)
            # a known name the title opens with: coined ("SparseGPT") or one rare word ("Mamba")
            title_coined = all(w[:1].isupper() or w.isdigit() for w in tname.split()) and len(tname.split()) <= 2 \
                and (sum(c.isupper() for c in tname) >= 2 or " " not in tname and not gaz.is_common_word(tname))
            if (sep >= 0 and title_coined and not _STUDY_SUBTITLE.match(t.group("rest"))
                    and gaz.lookup(tname) is not None
                    and (_word_in(abstract, tname) or respelt[0] or respelt[1])
                    and not _described_as_known(abstract, tname)):
                # "SparseGPT: ..." with SparseGPT used in the abstract: a coined name the title
                # opens with is the paper's own even when it is known by now (its paper is the
                # source of the gazetteer entry); with the title rule these are two cues
                known_proposals[entity_key(tname)].add("title_repeated")
        if sep >= 0 and abstract:
            out.extend(self._title_echoes(ct, view, sep, [p for p in proposal_ends if p > sep], add))
        for vm in _anchored_finditer(_PASSIVE_VERB, ct, _PASSIVE_VERB_ANCHORS):
            pm = _PASSIVE_BEFORE.search(ct, max(0, vm.start() - 30), vm.start())
            if pm is not None and _PASSIVE_PROPOSED.match(ct, pm.start()):
                lo = max(0, pm.start() - 60)
                brk = max(ct.rfind(".", lo, pm.start()), ct.rfind("\n", lo, pm.start()))
                nm = _PASSIVE_NAME.search(ct, brk + 1 if brk >= 0 else lo, pm.start())
                head_label = None
                if nm is None or nm.group("name").lower() in _HEAD_WORDS:
                    # "a novel FoldRank algorithm is proposed": the name before a head noun
                    hd = _HEAD_AT_END.search(ct, max(lo, pm.start() - 20), pm.start())
                    if hd is None:
                        continue
                    nm = _PASSIVE_NAME.search(ct, brk + 1 if brk >= 0 else lo, hd.start())
                    if nm is None or " " in nm.group("name") or any(nm.group("name") == d.short for d in defs):
                        continue  # ("a ... UVAD framework is proposed": the defined acronym names the task)
                    head_label = _head_label(hd.group("head"))
                ns = nm.start("name")
                while True:  # "Then Gradient Folding", "Finally, X"
                    fw = _FIRST_WORD.match(ct, ns, nm.end("name"))
                    if fw is None or fw.group(1).lower() not in _SENTENCE_ADVERBS:
                        break
                    ns = fw.end()
                label = head_label or self._label_before(ct, ns) or METHOD
                for ls, le in _list_items(ct, ns, nm.end("name")):  # "Lemur and Lemur-Chat are presented"
                    if self.is_name(ct[ls:le]) and not gaz.is_stop(ct[ls:le]):
                        add(ls, le, label, PROPOSED, "passive", 4)
        for m in (_NEW_NAME_HEAD.finditer(ct) if "new " in ct or "novel " in ct else ()):
            if _DET_BEFORE.search(ct, max(0, m.start() - 5), m.start()) is None:
                continue
            name = m.group("name")
            if any(name in (d.short, d.short + "s") for d in defs) or "-to-" in name \
                    or (_ADJECTIVE_END.search(name) and not _CAMEL.search(name)):  # "a novel PAC-Bayesian framework"
                continue  # "a novel FCD method": a kind of the thing the abstract defined; "NL-to-program": a task
            before = ct[max(0, m.start() - 40):m.start()].rstrip()
            if before.endswith(",") and (before.endswith("),") or self.is_name(before[:-1].rsplit(None, 1)[-1]
                                                                                if before[:-1].strip() else "")):
                continue  # "X (...), a novel GNN-based Y framework": describes the name before it
            if self.is_name(name) and gaz.lookup(name) is None and not _sentence_initial(ct, m.start()):
                add(m.start("name"), m.end("name"), _head_label(m.group("head")) or METHOD, PROPOSED, "new_name", 4)
        # "our long instruction-following X dataset": a coined name (not known) owned by the authors
        for m in _anchored_finditer(_OUR_MODIFIED_NAME, ct, _OUR_ANCHORS):
            name = m.group("name")
            if (m.start() and ct[m.start() - 1].isalnum()) or not self.is_name(name) \
                    or gaz.lookup(name) is not None or _LOWER_LAST_PART.search(name) \
                    or any(name in (d.short, d.short + "s") for d in defs) \
                    or _PARTICIPLE_MODIFIER.search(ct, m.start(), m.start("name")):
                continue  # "our retrieval-augmented BioBERT model": someone's model, adapted
            add(m.start("name"), m.end("name"), _head_label(m.group("head")) or METHOD, PROPOSED, "our", 3)
        # "our Tessera outperforms ...": a coined name owned by the authors
        for m in _anchored_finditer(_OUR_NAME, ct, _OUR_ANCHORS):
            if m.start() and (ct[m.start() - 1].isalnum() or ct[m.start() - 1] == "_"):
                continue
            hm = _OUR_HEAD_NAME.match(ct, m.start())
            if hm is not None and self.is_name(hm.group("name"), loose=True) and gaz.lookup(hm.group("name")) is None \
                    and not _LOWER_LAST_PART.search(hm.group("name")):
                add(hm.start("name"), hm.end("name"), _head_label(hm.group("head")) or METHOD, PROPOSED, "our", 3,
                    loose=True)
                continue
            name = m.group("name")
            if _LOWER_LAST_PART.search(name):
                continue
            nxt = _OUR_NEXT.match(ct, m.end("name"))
            second = None
            if nxt is None:  # "our X and Y perform on par": two names of the authors
                second = _OUR_AND.match(ct, m.end("name"))
                if second is not None and (not self.is_name(second.group("name")) or gaz.lookup(second.group("name"))
                                           is not None or _head_label(second.group("name")) is not None):
                    second = None
                nxt = _OUR_NEXT.match(ct, second.end()) if second is not None else None
            if nxt is None or not self.is_name(name, loose=True) or gaz.lookup(name) is not None \
                    or _head_label(name) is not None or _NONE_HEAD_NEXT.match(name) \
                    or any(name in (d.short, d.short + "s") for d in defs):  # the definition decides
                continue
            label = BENCHMARK if nxt.group("b") else METHOD
            add(m.start("name"), m.end("name"), label, PROPOSED, "our", 3, loose=True)
            if second is not None:
                add(second.start("name"), second.end("name"), label, PROPOSED, "our", 3)

        # abbreviation definitions typed by the head of the long form
        untyped_shorts: set[str] = set()
        proposal_orig = [view.to_orig(p) for p in proposal_ends]  # sorted, as the matches were
        unnamed_orig = [view.to_orig(p) for p in unnamed]
        bench_defs = self._benchmark_defs(text, defs)
        own_keys = {entity_key(_strip_markup(text[c.start:c.end])) for c in out if c.role == PROPOSED} if defs else set()
        for di, d in enumerate(defs):
            long_words = d.long.split()
            title_case = sum(w[:1].isupper() for w in long_words) >= max(2, len(long_words) - 1)
            head = long_words[-1] if long_words else ""
            label = _abbreviation_label(d.long, title_case)
            if label is None and title_case and not _FIELD_END.search(d.long) and not _ORG_END.search(d.long) and (
                    di + 1 < len(defs) and di + 1 in bench_defs and _DEF_COORD.fullmatch(text, d.short_end, defs[di + 1].long_start)
                    or di > 0 and di - 1 in bench_defs and _DEF_COORD.fullmatch(text, defs[di - 1].short_end, d.long_start)):
                label = BENCHMARK  # "in Level-based Foraging (LBF) and StarCraft Multi-agent Challenge (SMAC)"
            if "-to-" in d.long and d.long[:1].islower():
                continue  # "time-to-event (TTE)", "sequence-to-sequence (seq2seq)" name a task or shape
            if label is None and (not title_case or _FIELD_END.search(d.long)
                                  or (_TASK_LONG_END.search(d.long) and gaz.lookup(d.short) is None)):
                # an untyped lower-case long form, a field ("Deep Metric Learning (DML)", "Episodic RL
                # (ERL)") or a task or problem class ("Abstract Visual Reasoning (AVR)", "Passive
                # Acoustic Monitoring (PAM)", "Integer Linear Programs (ILPs)"): its acronym before a
                # head noun is not a name ("DML benchmarks", "two AVR datasets"); a known acronym
                # ("Massive Multitask Language Understanding (MMLU)") names its benchmark
                untyped_shorts.add(d.short)
                if d.short.endswith("s") and len(d.short) > 3 and d.short[-2:-1].isupper():
                    untyped_shorts.add(d.short[:-1])  # "Integer Linear Programs (ILPs) ... ILP benchmarks"
            pe = _last_before(proposal_orig, d.long_start)
            proposed = pe is not None and d.long_start - pe <= 80 and \
                _only_modifiers(_strip_markup(text[pe:d.long_start]))
            if not proposed and pe is not None and d.long_start - pe <= 80 \
                    and _KIND_OF_GAP.fullmatch(_strip_markup(text[pe:d.long_start])):
                proposed = True  # "we introduce a framework of fairness regularization terms (FRT)"
            if not proposed and pe is not None and d.long_start - pe <= 120 \
                    and _HEAD_PP_APPOSITION.fullmatch(_strip_markup(text[pe:d.long_start])):
                proposed = True  # "we design a new algorithm for ILFO, Forward Adversarial Imitation Learning (FAIL)"
            if not proposed and pe is not None and d.long_start - pe <= 140 and title_case \
                    and _NOVEL_DESC_APPOSITION.fullmatch(_strip_markup(text[pe:d.long_start])):
                proposed = True  # "we derive a novel flavor of the VAE, the Unscented Autoencoder (UAE)"
            if not proposed and _NOVEL_APPOSITION.match(text, d.short_end):
                proposed = True  # "based on the conjunct effect model (CEM), a novel decomposition of ..."
            if not proposed and _component_of_own(text, d.long_start, own_keys):
                proposed = True  # "X consists of two parts: a Set-membership Belief state learning Model (SBM)"
            if not proposed and title_case and not _FIELD_END.search(d.long) and not _NOT_METHOD_LONG.search(d.long) \
                    and ("novel" in text or "new" in text or "proposed" in text):
                # "fitted with a novel Multi-Window Multi-Head Attention (MW-MHA) module", "is achieved
                # by a novel SubEquivariant Transformer (SET)": a novel thing the paper names is its own (a
                # lower-case long form is a kind: "a new random feature (RF) mechanism")
                lo = max(0, d.long_start - 70)
                nm = _NOVEL_BEFORE.search(text, lo, d.long_start) if text.find("new", lo, d.long_start) >= 0 \
                    or text.find("novel", lo, d.long_start) >= 0 or text.find("proposed", lo, d.long_start) >= 0 else None
                proposed = nm is not None and _only_modifiers(_strip_markup(text[nm.end("novel"):d.long_start]))
            named = _NAMED_BEFORE.search(_strip_markup(text[max(0, d.long_start - 40):d.long_start])) is not None \
                or _PASSIVE_PROPOSED.match(text, d.short_end) is not None  # "X (ABC) is proposed"
            if named:
                win = _strip_markup(text[max(0, d.long_start - 60):d.long_start])
                if _ADOPTED_BEFORE.search(win) and not _NOVELTY.search(win) and not _WE_NAMING.search(win):
                    named = False  # "this paper adopts a class of models termed X (ABC)": someone else's
            if not named and text.startswith(")}", d.short_end):  # "{\\sc X (ABC)} is proposed"
                named = _PASSIVE_PROPOSED.match(text, d.short_end + 2) is not None
            if not named and d.long_start > 0 and text[d.long_start - 1] in "\"“`" and title_case:
                # a quoted Title-Case long form in the authors' sentence: 'We address it by "X Y (XY)"'
                lo = max(0, d.long_start - 200)
                k = max(text.rfind(". ", lo, d.long_start), text.rfind("\n", lo, d.long_start))
                named = _WE.search(text, k + 1 if k >= 0 else lo, d.long_start) is not None
            if _names_a_setting(text, d.long_start):
                continue  # "a new CZSL setting, named CCZSL", "as a new learning problem, namely NML"
            direct = proposed or named
            proposed = proposed or named
            if label is None:
                # "scalable and effective implicit GNN (SEIGNN)", "... diffusion model (DDM)"; a
                # Title-Case long form ending in a known benchmark ("Spiking Speech Commands (SSC)",
                # "Noisy Speech Commands v2 (NSC)") is a named variant of that benchmark
                tail_words = long_words[:-1] if len(long_words) > 2 and _VERSION_WORD.fullmatch(long_words[-1]) \
                    else long_words
                for n in (1, 2, 3):
                    if n <= len(tail_words):
                        tail = gaz.lookup(" ".join(tail_words[-n:]))
                        if tail is not None and tail.type == "method":
                            label = METHOD
                            break
                        if tail is not None and title_case and n < len(tail_words) \
                                and not gaz.is_common_word(tail_words[-1]) and not any(
                                    w.lower() in _CONNECTORS or gaz.lookup(w) is not None for w in tail_words[:-n]):
                            # ("LSTM on Penn Tree Bank (PTB)": a long form grown over another name is no variant)
                            label = BENCHMARK
                            break
            hm = _METHOD_HEAD_AFTER_SHORT.match(text, d.short_end) if label is None else None
            if hm is not None and not long_words[0].endswith("ly") \
                    and not (len(long_words) == 1 and d.long.islower()) \
                    and (proposed or not _field_methods(d.long, hm)):  # "differentially private (DP)", "first-order (FO)"
                label = METHOD  # "Empirical Utility Maximization (EUM) algorithm"
            if not proposed:
                ue = _last_before(unnamed_orig, d.long_start)
                proposed = ue is not None and d.long_start - ue <= 220 and title_case \
                    and _TOPIC_BEFORE.search(text, max(0, d.long_start - 12), d.long_start) is None \
                    and _first_named_since(text, defs, ue, di) \
                    and _PURPOSE_BEFORE.search(text, max(0, d.long_start - 40), d.long_start) is None \
                    and gaz.lookup(d.long) is None and gaz.lookup(d.short) is None \
                    and _TOOL_BEFORE.search(text, max(0, d.long_start - 45), d.long_start) is None
                # ("we propose a method, based on Mechanistic Interpretability (MI) techniques": a tool;
                # "a new method, dubbed X (ABC), to perform One Class Classification (OCC)": the unnamed
                # proposal has its name already, and a purpose's object is the task, not the name;
                # "we propose an approach to challenges in Model-based Reinforcement Learning (MBRL)": the
                # setting, named after "in")
            # a name given right after "we propose"/"called" is the paper's own method, whatever its
            # head noun, unless it names a setting ("contextual multi-arm bandit (MAB) models")
            direct_ok = direct and len(d.short) >= 3 and (not _NOT_METHOD_LONG.search(d.long)
                                                          or _NEURAL_EQUATION.search(d.long) is not None)
            if not proposed and label is not None and title_case and _part_of_own(text, d.long_start, own_keys):
                # "SEAS introduces a Foreground Modulation Network (FMN) to compute ...": a part the
                # paper's own system adds (only the role: what the name is, the rules above decide)
                proposed = True
            if proposed and label is None and (title_case or _TECH_HEAD.search(head) or direct_ok) \
                    and not _NONE_LAST_WORD.search(" " + d.long) \
                    and (direct_ok or not (_NOT_METHOD_LONG.search(d.long) or _PARADIGM_END.search(d.long))):
                label = self._label_after(text, d.short_end + 1, clean=False) or METHOD
            if label is not None and d.long.islower() and (_FIELD_END.search(d.long) or _TASK_LONG_END.search(d.long)) \
                    and _data_head_after(text, d.short_end):
                # "we construct a supervised fine-tuning (SFT) dataset": data for a paradigm or task
                # written in lower case, no dataset's name (nor the paradigm a method)
                continue
            if label == METHOD and _data_head_after(text, d.short_end):
                label = BENCHMARK  # "we construct the Visual Chat Logs (VCL) dataset"
            short_stop = gaz.is_stop(d.short) and not (direct and title_case)  # "... Framework (PDF)"
            if label is None or short_stop or gaz.is_stop(d.long) or _GENERIC_CLASS.search(d.long):
                continue
            if self._head_is_none(text, d.short_end + 1, clean=False) or _NONE_HEAD_NEXT.match(text, d.short_end + 1) \
                    or self._appositive_head(text, d.short_end + 1) == "n":
                continue
            known = gaz.lookup(d.long)
            if known is None:
                by_short = gaz.lookup(d.short)
                if by_short is not None and entity_key(d.long) in {entity_key(f) for f in (by_short.name, *by_short.aliases)}:
                    known = by_short
            role = PROPOSED if proposed and known is None and not _earlier_work_sentence(text, d.long_start) \
                and not _EARLIER_BEFORE.search(text, max(0, d.long_start - 50), d.long_start) else USED
            if known is not None:
                label = METHOD if known.type == "method" else BENCHMARK
                if direct and not _earlier_work_sentence(text, d.long_start):
                    # a known name defined right after a proposal verb counts as one proposal rule:
                    # with a second one (the title "LRM: ...") it is the paper's own
                    for form in (d.long, d.short):
                        known_proposals[entity_key(form)].add("abbreviation")
                        if pe is not None and d.long_start - pe <= 80 and _NOVELTY.search(text, pe, d.long_start):
                            # "we propose the first / a novel X (ABC)": novelty is a second cue
                            known_proposals[entity_key(form)].add("novelty")
                        if pe is not None and d.long_start - pe <= 80 and _HEAD_APPOSITION_END.search(
                                text, pe, d.long_start):
                            # "we develop a challenging benchmark, X (ABC)": the head noun the name
                            # is in apposition to says what was made, a second cue
                            known_proposals[entity_key(form)].add("head_apposition")
            out.append(_Cand(d.long_start, d.long_end, label, role, "abbreviation", None, 3))
            out.append(_Cand(d.short_start, d.short_end, label, role, "abbreviation", None, 3))
            if role == PROPOSED:
                own_keys.update((entity_key(_strip_markup(d.long)), entity_key(_strip_markup(d.short))))

        # emphasised names: coined names anywhere, descriptive phrases right after a proposal verb
        skipped_end = -1
        for es, ee in emphasized_ranges(text):
            inner = _strip_markup(text[es:ee]).strip()
            after = _skip_markup(text, ee)
            if _NONE_HEAD_NEXT.match(text, after) or self._head_is_none(text, after, clean=False):
                continue
            if gaz.lookup(inner) is not None:
                continue
            if inner.lower() in _LATIN_PHRASES or inner.split()[:1] and inner.split()[0].lower() in _EMPH_LEAD_WORDS:
                continue  # "maximum *a posteriori* inference", "a *novel inference algorithm*": no name
            pe = _last_before(proposal_orig, es)
            after_verb = pe is not None and es - pe <= 40 and \
                _only_modifiers(_strip_markup(text[pe:es]).rstrip("\\textbf{*_ "))
            nb = _EMPH_NAMING_BEFORE.search(_strip_markup(text[max(0, es - 80):es])) \
                if not after_verb and es > 8 else None
            if nb is not None:
                # "a new family of loss functions, *smooth adversarial comp-sum losses*": an apposition to
                # a new thing the authors describe makes the emphasised phrase its name, as right after
                # the verb; so does a naming verb after a method or benchmark head noun ("Our approach -
                # called a *conceptual safeguard*"; not "a new assumption, called *local correctness*" nor
                # "a new performance measure ... that we call the *regret of exploration*")
                before = _strip_markup(text[max(0, es - 200):es])
                before = before[:len(before) - (len(nb.string) - nb.start())]
                before = before[before.rfind(". ") + 1:]
                heads = [h.lastgroup for h in _HEAD_RE.finditer(before)]
                after_verb = nb.group("verb") is None or (("m" in heads or "b" in heads) and "n" not in heads
                                                          and "assumption" not in before)
            descriptive = after_verb and 2 <= len(inner.split()) <= 7 and inner[:1].isalpha() and not gaz.is_stop(inner) \
                and _gap_head(_strip_markup(text[pe:es])) != "n" \
                and not inner.split()[0].endswith("ly")
            # "a weaker notion of *X*"; "to *automatically discover Y*" is a purpose, not a name
            if not after_verb and (_EVAL_PREP_BEFORE.search(text, max(0, es - 30), es) is not None
                                   and not _OUR_BEFORE.search(text, max(0, es - 30), es)
                                   or skipped_end >= 0 and _LIST_GAP.fullmatch(text, skipped_end, es)):
                # "on the \textsc{HalfCheetah} task", "from the *arXiv*, *bioRxiv* and ...": a test
                # bed or a source, and the rest of its list
                skipped_end = ee
                continue
            if _NONE_LAST_WORD.search(" " + inner) or _NOT_METHOD_LONG.search(inner) \
                    or _PHENOMENON_WORD.search(inner):
                continue  # emphasis marks terms too: a phenomenon or setting ("*Catastrophic Forgetting*")
            if _WEAK_EMPHASIS_BEFORE.search(text, max(0, es - 8), es) and not after_verb \
                    and (" " in inner or not self.is_name(inner)):
                continue  # italics ("_Global South_", "{\\it full information}") mark terms: only a coined word is a name
            if _EXAMPLE_BEFORE.search(text, max(0, es - 30), es) and not after_verb:
                continue  # "exemplified by __Google Cloud Vision__", "such as _X_": examples of existing things
            if _CONCEPT_OF_BEFORE.search(text, max(0, es - 40), es):
                continue  # "the concept of {\\sc Social Bias Neurons}": a notion, not a method
            if _POSSESSIVE_BEFORE.search(text, max(0, es - 40), es) and not _OUR_BEFORE.search(text, max(0, es - 30), es):
                continue  # "the vendor's \textit{TensorUnit}": someone else's product
            if _DEFINITION_INSIDE.search(inner):
                continue  # "*Long Form (LF)*": the abbreviation rule splits the two forms
            if inner[-1:] in ",;:" or inner.endswith(" ."):
                continue  # "\textit{High Memory Usage,}": an emphasised clause (a listed issue), not a name
            if " " not in inner and _NOTICE_AFTER.match(text, after):
                continue  # "**WARNING**: This paper contains ...": a notice's label, not a name
            # an emphasised lower-case term used as a name before a head noun ("a *backdoor expert* model");
            # one participle or adjective is a property ("*smoothed* estimators")
            headed = not descriptive and 1 <= len(inner.split()) <= 4 and inner[:1].isalpha() \
                and _HEAD_NEXT.match(text, after) is not None and not gaz.is_stop(inner) \
                and _head_label(inner.split()[-1]) is None and not _GENERIC_CLASS.search(inner) \
                and not (" " not in inner and (_PARTICIPLE.search(inner) or gaz.is_common_word(inner)))
            if self.is_name(inner) or descriptive or headed:
                label = _data_head_after(text, after) \
                    or (_head_label(_HEAD_NEXT.match(text, after).group(0)) if headed else None) \
                    or self._label_after(text, after, clean=False) or METHOD
                out.append(_Cand(es, ee, label, PROPOSED, "emphasis", None, 4))

        # a quoted phrase used as a name before a head noun in the authors' sentence: "we find that
        # adding large ``Cholesky-orthogonalized dense'' layers helps" (quotes as typographic emphasis)
        if "``" in ct or "“" in ct:
            for qm in _QUOTED_BEFORE_HEAD.finditer(ct):
                phrase = qm.group("q")
                lo = max(0, qm.start() - 200)
                brk = max(ct.rfind(". ", lo, qm.start()), ct.rfind("\n", lo, qm.start()))
                if _WE.search(ct, brk + 1 if brk >= 0 else lo, qm.start()) is None:
                    continue
                if not any("-" in w or w[:1].isupper() for w in phrase.split()) or gaz.lookup(phrase) is not None \
                        or gaz.is_stop(phrase) or _PHENOMENON_END.search(phrase) or _GENERIC_CLASS.search(phrase):
                    continue
                out.append(_Cand(*view.span_to_orig(*qm.span("q")), _head_label(qm.group("head")) or METHOD,
                                 PROPOSED, "quoted", None, 3))

        # a quoted name right before a data head noun: "on the challenging 'Reefs' environment", "the
        # existing ‘Tides’ dataset", "a new “Q7” suite of tasks": the quotes mark the data set's name
        if any(q in ct for q in _QUOTE_CHARS):
            for qm in _QUOTED_DATA.finditer(ct):
                phrase = qm.group("q")
                if (qm.start() and ct[qm.start() - 1].isalnum()) or _LOWER_LAST_PART.search(phrase) \
                        or gaz.is_stop(phrase) or _GENERIC_CLASS.search(phrase):
                    continue  # ("the "GBDT-friendly" benchmark": a quoted modifier)
                pe = _last_before(proposal_ends, qm.start())
                own = pe is not None and qm.start() - pe <= 60 and _only_modifiers(ct[pe:qm.start()].strip(_QUOTE_STRIP))
                add(*qm.span("q"), BENCHMARK, PROPOSED if own else USED, "quoted_data", 3, loose=True)

        # a quoted phrase right after a proposal verb and an article: "we also propose an ``ensemble
        # shortcut'' whereby ...", "we introduce the ``shadow lenses'' framework" (quotes name it)
        for pe in proposal_ends:
            qm = _QUOTED_AFTER_VERB.match(ct, pe, min(len(ct), pe + 120))
            if qm is None:
                continue
            phrase = qm.group("q")
            hn = _HEAD_NEXT.match(ct, qm.end())
            if gaz.lookup(phrase) is not None or gaz.is_stop(phrase) or _PHENOMENON_END.search(phrase) \
                    or _GENERIC_CLASS.search(phrase) or _NONE_LAST_WORD.search(" " + phrase) \
                    or _PARADIGM_END.search(phrase) or phrase.split()[0].lower() in _LOWER_PROPOSAL_STOP \
                    or phrase.lower().startswith("learning ") \
                    or any(h.group("n") for h in _HEAD_RE.finditer(phrase)) \
                    or (" " not in phrase and (hn is not None or _head_label(phrase) is not None)) \
                    or self._head_is_none(ct, qm.end()) or _NONE_HEAD_NEXT.match(ct, qm.end()) \
                    or (hn is None and not _QUOTE_NAME_END.match(ct, qm.end())):
                continue  # ("a ``soft'' version": a quoted modifier; "the ``curse'' of ...": a phenomenon)
            label = _head_label(hn.group(0).strip()) if hn is not None else None
            out.append(_Cand(*view.span_to_orig(*qm.span("q")), label or self._label_after(ct, qm.end()) or METHOD,
                             PROPOSED, "quoted", None, 3))

        # a lower-case name right after a proposal verb, defined by an appositive with a head noun:
        # "We introduce collider regression, a framework to ...", "we first propose per-IC
        # quantization, a simple yet effective method", "we introduce speculative decoding - an algorithm"
        for pe, lm, phrase, words in _lower_names_after(_LOWER_PROPOSAL, ct, proposal_ends, 160):
            if _lower_phrase_is_no_name(phrase, words, gaz) \
                    or (len(words) == 1 and "-" not in phrase and gaz.is_common_word(phrase)) \
                    or _head_label(words[-1]) is not None or _head_label(lm.group("head")) is None \
                    or _USED_MODS.search(lm.group(0)):  # "X, a standard technique": someone else's
                continue
            label = _head_label(lm.group("head"))
            entry = gaz.lookup(phrase)
            if entry is not None:
                known_proposals[entity_key(phrase)].add("appositive")  # the verb and the appositive: two cues
                add(lm.start("name"), lm.end("name"), label, PROPOSED, "propose", 3)
            else:  # a lower-case phrase is no name to is_name: the two cues make it one
                s0, e0 = view.span_to_orig(*lm.span("name"))
                out.append(_Cand(*_balance_dollars(text, s0, e0), label, PROPOSED, "propose", None, 3))

        # a lower-case name of two to four words right after "we propose/introduce", no determiner,
        # ending its noun phrase: "we propose velocity parameterization and explore ...", "we then
        # propose gradient-guided parity alignment, which ..." (a determiner makes it a description:
        # "we propose a universal guidance algorithm")
        for pe in proposal_ends:
            if not ct.endswith(_BARE_VERBS, max(0, pe - 10), pe):
                continue
            lm = _LOWER_BARE_PROPOSAL.match(ct, pe, min(len(ct), pe + 80))
            if lm is None:
                continue
            phrase = lm.group("name")
            words = phrase.split()
            if _lower_phrase_is_no_name(phrase, words, gaz) or any(w in _BARE_STOP for w in words) \
                    or _NOT_METHOD_LONG.search(phrase) or _head_label(words[-1]) is not None \
                    or any(w.endswith("ly") for w in words) or gaz.lookup(phrase) is not None \
                    or self._head_is_none(ct, lm.end("name")) or self._appositive_head(ct, lm.end("name")) == "n" \
                    or _BARE_CONTINUED.match(ct, lm.end("name")) \
                    or (ct.startswith(",", lm.end("name")) and _USED_MODS.search(ct, lm.end("name"),
                                                                                min(len(ct), lm.end("name") + 40))):
                # ("We introduce algorithmic assurance, the problem of ...": a problem; "we propose
                # rank-based matching and distribution-based matching strategies": modifiers of a
                # shared head; "we propose automated keywords-ranking for prompts (AK4Prompts)": the
                # name runs on to its definition; "We propose data augmentation, a standard technique":
                # someone else's)
                continue
            s0, e0 = view.span_to_orig(*lm.span("name"))
            out.append(_Cand(s0, e0, self._label_after(ct, lm.end("name")) or METHOD, PROPOSED, "propose", None, 3))

        # a coined name set off by commas after a described proposal: "We propose a novel relative
        # position encoding with interpolation, FIRE, to improve ..." (no head noun needed)
        for pe in proposal_ends:
            am = _APPOS_AFTER_NP.match(ct, pe)
            if am is not None and self.is_name(am.group("name")) and gaz.lookup(am.group("name")) is None \
                    and not any(h.group("n") for h in _HEAD_RE.finditer(ct, pe, am.start("name"))):
                # ("we present a study of this phenomenon, X, ...": X names what is studied)
                add(am.start("name"), am.end("name"), METHOD, PROPOSED, "propose", 3)

        # the same with a lower-case name: the proposal verb, the head noun and the commas are the
        # cues ("we devise an anytime algorithm, fictitious team-play, that converges"); a description
        # ("a new approach, adversarial sparsity, which quantifies"), a paradigm or a known name is not
        for pe, lm, phrase, words in _lower_names_after(_LOWER_APPOS_AFTER_NP, ct, proposal_ends, 160):
            if _lower_phrase_is_no_name(phrase, words, gaz) \
                    or words[0] in ("called", "named", "termed", "dubbed", "coined") or words[0].endswith("ing") \
                    or any(w in _BARE_STOP or w in _APPOS_REFERENCE or w.endswith("ly") for w in words) \
                    or gaz.lookup(phrase) is not None or _NOT_METHOD_LONG.search(phrase) or _head_label(words[-1]) is not None \
                    or (len(words) == 1 and "-" not in phrase and gaz.is_common_word(phrase)) \
                    or _USED_MODS.search(ct, pe, lm.start("name")):
                continue
            s0, e0 = view.span_to_orig(*lm.span("name"))
            out.append(_Cand(s0, e0, _head_label(lm.group("head")) or METHOD, PROPOSED, "propose", None, 3))

        # a coined name right after "a novel/new ... <head noun>", with no proposal verb before it
        # ("which leads to a novel skill-learning objective WSEP.", "with a new generative model AbODE
        # that ..."): the novelty marks the authors' own thing (literal-first scan: "novel"/"new")
        for key in ("novel ", "new "):
            i = ct.find(key)
            while i >= 0:
                if i >= 2 and _ARTICLE_BEFORE_NOVEL.search(ct, max(0, i - 5), i):
                    nm = _NOVEL_HEAD_NAME.match(ct, i + len(key), min(len(ct), i + 120))
                    if nm is not None and self.is_name(nm.group("name")) and gaz.lookup(nm.group("name")) is None \
                            and (_CAMEL.search(nm.group("name")) or len(nm.group("name")) >= 3 and nm.group("name").isupper()
                                 and not gaz.is_stop(nm.group("name"))) \
                            and not _earlier_work_sentence(ct, i):
                        add(nm.start("name"), nm.end("name"), _head_label(nm.group("head")) or METHOD, PROPOSED,
                            "propose_head", 4)
                i = ct.find(key, i + 1)

        # unnamed proposal ("we propose a method for ...") then a coined name in the next sentence
        for ue in unnamed:
            window_end = min(len(ct), ue + 220)
            for m in _NAME_TOKEN.finditer(ct, ue, window_end):
                if self.is_name(m.group(0)) and gaz.lookup(m.group(0)) is None and \
                        _NAME_THEN_VERB.match(ct, m.end()) and not _word_in(ct[:ue], m.group(0)):
                    add(m.start(), m.end(), METHOD, PROPOSED, "propose_next", 3)
                    break

        # a technique named before its citation: "elliptical slice sampling (Murray et al., 2010)"
        if "(" in ct:
            for cm in _CITATION.finditer(ct):
                cstart = cm.start()
                while cstart > 0 and ct[cstart - 1].isspace():
                    cstart -= 1
                m = _PHRASE_AT_END.search(ct, max(0, cstart - 80), cstart)
                if m is None:
                    continue
                words = m.group("phrase").split()
                while words and words[0].lower() in _PHRASE_STOP:
                    words.pop(0)
                if len(words) >= 2 and (_TECH_HEAD.match(words[-1]) or _WEAK_TECH_HEAD.match(words[-1])):
                    ps = m.end("phrase") - len(" ".join(words))
                    if not any(w.lower() in _PHRASE_STOP for w in words):
                        add(ps, m.end("phrase"), METHOD, USED, "cited", 2, loose=True)

        # shape rules
        head_words = list(_HEAD_WORD.finditer(ct))  # _BENCH_HEAD_WORD's and _METHOD_HEAD_WORD's matches
        task_tokens: set[str] = set()  # coined tokens written as a task's or field's name
        field_tokens: set[str] = set()  # ... by a field noun or "the task of X" (the stronger cue)
        for tm in _TASK_TOKEN.finditer(ct):
            task_tokens.add(tm.group("a") or tm.group("f"))
            if tm.group("f") or tm.group("head") in _FIELD_NOUNS:
                field_tokens.add(tm.group("a") or tm.group("f"))
        for hm in head_words:
            if hm.lastgroup != "b":
                continue
            # the longest name list ending right at this head word ("on X, Y, and Z datasets")
            lo = max(0, hm.start() - 240)
            lo = max(lo, ct.rfind(". ", lo, hm.start()) + 1)  # a list never crosses a sentence end
            m = _BENCH_AFTER.search(ct, lo, hm.end())
            if m is None:
                continue
            head = m.group("head").lower()
            # heads that also follow plain words ("our test set") need a name the rules know
            strict = head.startswith(("environment", "challenge", "collection", "test set", "training set",
                                      "query log"))
            loose = head.startswith(("dataset", "data set", "database", "corpus", "corpora", "benchmark"))
            for ls, le in _list_items(ct, m.start("list"), m.end("list")):
                ls = _skip_function_words(ct, ls, le)
                lp = _LANGUAGE_PREFIX.match(ct, ls, le)
                if lp is not None:
                    ls = lp.end()  # "the English BBQ dataset", "the English-only RULER benchmark"
                item = ct[ls:le]
                if item in untyped_shorts or ct[ls:_trim_modifier(ct, ls, le)[1]] in untyped_shorts:
                    continue  # "IFT datasets", "an IFT-dedicated dataset": the data of a paradigm named by its acronym
                if item in task_tokens and gaz.lookup(item) is None:
                    continue  # "XMC benchmarks" where the abstract also writes "XMC tasks": a task's acronym
                if strict and gaz.lookup(item) is None and not self.is_name(item):
                    continue
                le = self._trim_generic_tail(ct, ls, le)
                ok_loose = loose and not _sentence_initial(ct, ls) and item.lower() not in _NOT_DATASET_WORDS
                add(ls, le, BENCHMARK, USED, "bench_head", 2, loose=ok_loose)
        # "the CALVIN language benchmark", "the widely adopted BeIR text retrieval benchmark": a coined
        # name, then the task in lower-case words, then a singular data head (17 of 18 such phrases
        # in silver + dev gold are labelled; the other one names a task, "the first T2I-ICL benchmark")
        for hm in head_words:
            if hm.lastgroup != "b":
                continue
            m = _NAME_TASK_HEAD.search(ct, max(0, hm.start() - 90), hm.end())
            if m is None or m.end() != hm.end():
                continue
            name = m.group("name")
            if name in untyped_shorts or name in task_tokens or gaz.is_stop(name) \
                    or _LANGUAGE_PREFIX.match(name + " X") or any(w in _NOT_PREFIX_WORDS for w in m.group("mods").split()):
                continue
            pe = _last_before(proposal_ends, m.start())
            own = pe is not None and m.start() - pe <= 60 and _only_modifiers(ct[pe:m.start("name")])
            add(m.start("name"), m.end("name"), BENCHMARK, PROPOSED if own else USED, "bench_task_head", 2)
        if any(w in ct for w in _SOURCE_WORDS):
            # "Wikipedia corpus", "Twitter dataset": a generic source is a dataset only with a data head
            for m in _SOURCE_DATA.finditer(ct):
                out.append(_Cand(*view.span_to_orig(*m.span("name")), BENCHMARK, USED, "bench_head", None, 2))
        for m in _anchored_finditer(_BENCH_BEFORE, ct, _BENCH_BEFORE_WORDS):
            items = _list_items(ct, m.start("list"), m.end("list"))
            if m.group("trigger") is None:
                # a bare list right after the head ("datasets SBU, UCF and ISTD"): two names at least
                if m.group("open") == ":" or len(items) < 2 and not self._coined_after_head(ct, m, items):
                    continue
            for ls, le in items:
                le = self._trim_generic_tail(ct, ls, le)
                add(ls, le, BENCHMARK, USED, "bench_list", 2, loose=not _sentence_initial(ct, ls))
        for hm in head_words:
            if hm.lastgroup != "m":
                continue
            m = _NAME_AT_END.search(ct, max(0, hm.start() - 60), hm.start() + 1)
            if m is not None and m.group("name") in untyped_shorts:
                continue  # "test-time adaptation (TTA) method": the paradigm, not a method name
            if m is not None and self._described_proposal(ct, m.start("name"), hm.end(), proposal_ends):
                m = None
            if m is not None:
                add(m.start("name"), m.end("name"), METHOD, USED, "method_head", 2)
            if hm.start() > title_end:
                # "the recently reported Augmented Memory algorithm": a Title-Case name mid-sentence
                tm = _TITLE_AT_END.search(ct, max(0, hm.start() - 60), hm.start() + 1)
                if tm is not None and self._described_proposal(ct, tm.start("name"), hm.end(), proposal_ends):
                    tm = None  # "we propose an Interactive Object Placement method ..., dubbed IOPRE"
                if tm is not None and " " in tm.group("name") and not _sentence_initial(ct, tm.start("name")) \
                        and not _GENERIC_CLASS.search(tm.group("name")) and not _PARADIGM_END.search(tm.group("name")) \
                        and not _MODIFIER_SUFFIX.search(tm.group("name").split()[0]):  # "Transformer-based SNN"
                    add(tm.start("name"), tm.end("name"), METHOD, USED, "method_head", 2)
        for m in _anchored_finditer(_COMPARE, ct, _COMPARE_WORDS):
            for ls, le in _list_items(ct, m.start("list"), m.end("list")):
                item = ct[ls:le]
                if gaz.lookup(item) is not None or (self.is_name(item) and " " not in item and
                                                    _CAMEL.search(item)):
                    add(ls, le, METHOD, USED, "compare", 1)
        for cs, ce in coined:
            tok = ct[cs:ce]
            vm = _VERSION_GLUED.search(tok)
            if vm is not None and vm.start() >= 2:
                # "Qwen2", "InternLM2", "ChatGLM3": a known name with its version glued on (one token,
                # which the phrase matchers cannot see)
                base = gaz.lookup(tok[:vm.start()])
                if base is not None and not tok[vm.start() - 1].isdigit():
                    if base.type == "method":
                        ce = _release_end(ct, ce)  # "Qwen-2.5-72B", not "Qwen-2"
                    add(cs, ce, METHOD if base.type == "method" else BENCHMARK, USED, "gazetteer", 1)
                    continue
            if ce + 1 < len(ct) and ct[ce] == "/" and ct[ce + 1].isalnum() and "-" in tok:
                known = gaz.lookup(tok)
                if known is not None:
                    # "NAS-Bench-101/201/301": the literal first name of a slash coordination, which
                    # the tokenizer keeps in one token with the rest (GUIDELINES: "CIFAR-10/100")
                    add(cs, ce, METHOD if known.type == "method" else BENCHMARK, USED, "gazetteer", 1)
                    continue
            if ("-" in tok or tok[-1].isdigit()) and not self._known_token(tok):
                grown = self._known_with_tail(tok)
                if grown is not None:
                    # "Yi-6B-200k", "Cifar-10": a known model with a size or context length
                    # glued on, or a known code in another casing (one token the matchers miss)
                    add(cs, ce, grown, USED, "gazetteer", 1)
                    continue
            if _METHOD_SUFFIX.fullmatch(tok) or _MODEL_SIZE_TOKEN.fullmatch(tok):
                add(cs, ce, METHOD, USED, "method_suffix", 1)
            elif _BENCH_SUFFIX.fullmatch(tok) and tok not in untyped_shorts \
                    and not (tok in field_tokens and gaz.lookup(tok) is None):
                # ("Long-Form Question Answering (LFQA)": a task's acronym, not a QA dataset; nor
                # is "Map-VQA" where the abstract writes "Map-VQA research")
                add(cs, ce, BENCHMARK, USED, "bench_suffix", 1)

        if "'s " in ct or "’s " in ct:
            for m in _EPONYM.finditer(ct):
                who = m.group("who")
                known = gaz.lookup(who)
                if gaz.is_common_word(who) or known is not None and known.type != "method" or who == "Bayes" \
                        or re.search(rf"(?<![\w'’-]){who}(?!['’\w-])", ct) is not None:
                    continue  # ("Today's ...", "Motif's method": a word or the paper's own system, not a person)
                out.append(_Cand(*view.span_to_orig(m.start(), m.end()), METHOD, USED, "eponym", None, 1))

        # gazetteer
        # an acronym this abstract defines otherwise is not the gazetteer's ("SDS" = switching dynamical systems)
        own_shorts = {d.short.rstrip("s"): d.long for d in defs}
        matches = self.matcher_orth(doc) + self.matcher_lower(doc)
        text_title_end = text.find("\n\n")
        entry_of = self._entry_of
        for match_id, s, e in matches:
            i = entry_of.get(match_id)
            if i is None:
                i = entry_of[match_id] = int(self.vocab.strings[match_id][3:])
            entry = gaz.entries[i]
            # two token lookups per match: cheaper than doc.to_array for the few matches a text has
            cs = doc[s].idx
            last = doc[e - 1]
            ce = last.idx + len(last)
            surface = text[cs:ce]
            if own_shorts and surface.rstrip("s") in own_shorts and \
                    _other_long_form(own_shorts[surface.rstrip("s")], entry):
                continue
            trimmed_name = None
            if e - s >= 2 and last.lower_ in _GENERIC_HEAD_WORDS and entry.type == "method":
                # "the Hedge algorithm" when "Hedge" is an entry of its own (two entries for one method):
                # the name is the words before the generic head noun (GUIDELINES: "the Adam optimizer"
                # -> Adam), so "Hedge algorithm" and a later "Hedge" are one entity. (When the bare
                # words are an alias of the same entry, the two are one entity already.)
                prev = doc[e - 2]
                bare = text[cs:prev.idx + len(prev)]
                b = gaz.lookup(bare)
                if b is not None and b is not entry and entity_key(b.name) == entity_key(bare) \
                        and not any(" " in a for a in b.aliases):
                    ce = prev.idx + len(prev)
                    trimmed_name = b.name
                    entry = b
                    surface = bare
            match_end, match_start = ce, cs
            cs, ce = _extend_hyphenated(text, cs, ce)
            if (cs, ce) != (match_start, match_end):
                grown = gaz.lookup(text[cs:ce])
                if grown is not None and grown is not entry:
                    entry = grown  # "CNN-DailyMail" grown from "CNN" is the dataset's alias, not the network
            label = METHOD if entry.type == "method" else BENCHMARK
            if label == BENCHMARK:
                if ce > match_end and _SPLIT_SUFFIX.fullmatch(text, match_end, ce):
                    ce = match_end  # "miniF2F-valid", "miniF2F-test": splits of one benchmark (GUIDELINES' gold)
                elif ce == match_end:
                    bv = _BENCH_VERSION.match(text, ce)
                    if bv is not None:
                        ce = bv.end()  # "MS COCO 2014-30k", "ImageNet 32x32", "Argoverse 1": another entity
            sm = _SIZE.match(text, ce)
            if sm:  # "Llama-2 7B"; a size makes a model of a dataset's name too ("Alpaca-30B")
                ce = sm.end()
                label = METHOD
            elif ce < len(text) and text[ce] == "+" and (ce + 1 == len(text) or not text[ce + 1].isalnum()):
                ce += 1  # "CFR+", "jackknife+", "HumanEval+": a named variant
            elif label == METHOD and not surface[-1:].isdigit() and surface[:1].isupper():
                vm = _VERSION_AFTER.match(text, ce)
                if vm is not None:
                    ce = vm.end("v")  # "PaLM 2", "Gemini 1.5": the version is part of the name (GUIDELINES)
            if label == METHOD and ce == match_end:
                vm = _NAMED_VERSION.match(text, ce)
                if vm is not None:
                    ce = vm.end("v")  # "data2vec 2.0", "Swin V2", "Claude 2.0/2.1"
            canonical = _canonical(gaz, surface) if text[cs:ce] == surface else None
            if trimmed_name is not None and text[cs:ce] == surface:
                canonical = trimmed_name
            if canonical is None and text[cs:ce] == surface and entity_key(surface) in (
                    entity_key(entry.name) + "s", entity_key(entry.name) + "es"):
                canonical = entry.name  # a plural the matcher knows but lookup does not ("Laplace approximations")
            out.append(_Cand(cs, ce, label, USED, "gazetteer", canonical, 0))
            if label == METHOD and cs > 1 and text[cs - 1] == " " and not any(ls < ce and cs < le for ls, le in long_spans):
                mm = _MECHANISM_MODS.search(text, max(0, cs - 50), cs)
                if mm is not None and not gaz.is_stop(surface) \
                        and not _MOD_AS_VERB_BEFORE.search(text, max(0, mm.start() - 8), mm.start()) \
                        and (_MOD_PHRASE_END.match(text, ce) or _NAME_THEN_VERB.match(text, ce)) \
                        and gaz.lookup(text[mm.start():ce]) is None:
                    # "the linearized Laplace approximation", "implicit OMD", "forward-looking GFlowNet":
                    # a mechanism modifier in front of a known algorithm names its own variant
                    out.append(_Cand(mm.start(), ce, label, USED, "gazetteer", None, 0))
            if cs > text_title_end:
                pm = self._title_case_prefix(text, cs, ce)
                if pm is not None and not any(pm < le and ls < ce for ls, le in long_spans):  # a defined long form decides
                    out.append(_Cand(pm, ce, label, USED, "gazetteer", None, 0))
        if "$" in text:
            out.extend(self._known_in_math(text, view))
        # a known benchmark with a year glued by an apostrophe ("WMT'21", one token): that edition
        i = text.find("'")
        while i >= 0:
            if i and text[i + 1:i + 3].isdigit() and not (text[i + 3:i + 4].isalnum() or text[i + 3:i + 4] == "'"):
                wm = _WORD_BEFORE_APOSTROPHE.search(text, max(0, i - 30), i)
                if wm is not None:
                    known = gaz.lookup(wm.group(0))
                    if known is not None and known.type == "benchmark":
                        out.append(_Cand(wm.start(), i + 3, BENCHMARK, USED, "gazetteer", None, 0))
            i = text.find("'", i + 1)
        if ", " in text or " and " in text or " or " in text:
            known = [(c.start, c.end, c.label) for c in out if c.role == USED]
            taken = {(c.start, c.end) for c in out}
            for ks, ke, lab in known:
                sm = _SIBLING_AFTER.match(text, ke)
                bm = _SIBLING_BEFORE.search(text, max(0, ks - 40), ks)
                if bm is not None and not _SIBLING_LEAD.search(text, max(0, bm.start() - 14), bm.start()):
                    bm = None  # ("the accuracy of X and ImageNet": a list starts after a comma, an opener or a cue)
                for m in (sm, bm):
                    if m is None or m.span("name") in taken:
                        continue
                    name = m.group("name")
                    if not self.is_name(name) or gaz.lookup(name) is not None or _VERSION_WORD.fullmatch(name) \
                            or any(a < m.end("name") and m.start("name") < b for a, b in taken) \
                            or any(name in (d.short, d.short + "s") for d in defs):
                        continue  # (an acronym the abstract defines: its long form decides, "SFT")
                    taken.add(m.span("name"))
                    out.append(_Cand(m.start("name"), m.end("name"), lab, USED, "list_sibling", None, -1))
        # a name the abstract gives a metric ("we develop an automatic metric, X, that ..."; "X, a
        # new measure of ...") is neither a method nor a benchmark (GUIDELINES), whichever rule
        # found it (the title "X: ..." included); a known name keeps its gazetteer type
        if any(w in ct for w in _METRIC_WORDS) and _METRIC_NAMED_GATE.search(ct) is not None:
            for mm in _METRIC_NAMED.finditer(ct):
                metric_names.add(entity_key(mm.group("name")))
        if metric_names:
            out = [c for c in out if c.rule == "gazetteer"
                   or entity_key(_strip_markup(text[c.start:c.end])) not in metric_names]
        own_known = {k for k, rules in known_proposals.items() if len(rules) >= 2}
        if own_known:
            for c in out:
                if entity_key(_strip_markup(text[c.start:c.end])) in own_known:
                    c.role = PROPOSED
        return out

    def _known_in_math(self, text: str, view: CleanView) -> list[_Cand]:
        """Known names written with a bit of inline math ("$\\beta$-VAE", "$k$-NN",
        "LLaMA-$30$B"): the phrase matchers see the markup's tokens, the clean view the name.

        Only a short math piece (one letter, a Greek letter, a number) glued to letters outside
        the math: a whole formula or a variable alone is no name.
        """
        gaz = self.gazetteer
        ct = view.text
        out: list[_Cand] = []
        done = 0
        for m in _SHORT_MATH.finditer(text):
            s0, e0 = m.span()
            glued_left = s0 > 0 and (text[s0 - 1].isalnum() or text[s0 - 1] == "-")
            glued_right = e0 < len(text) and (text[e0].isalnum() or text[e0] == "-")
            if not (glued_left or glued_right):
                continue
            p = view.to_clean(m.start("body"))
            if p < done:
                continue  # a word read already ("$k$-$\\ell$-...")
            a = p
            lo, hi = max(0, p - _MAX_NAME_LEN), min(len(ct), p + _MAX_NAME_LEN)  # linear in the text
            while a > lo and (ct[a - 1].isalnum() or ct[a - 1] == "-"):
                a -= 1
            b = p
            while b < hi and (ct[b].isalnum() or ct[b] == "-" or (ct[b] == "." and ct[b + 1:b + 2].isdigit())):
                b += 1
            done = b
            if a == lo > 0 or b == hi < len(ct):
                continue  # a word this long is no name
            while b > a and ct[b - 1] == "-":
                b -= 1
            while a < b and ct[a] == "-":
                a += 1
            name = ct[a:b]
            if sum(c.isalpha() for c in name) < 2 or name.isdigit():
                continue
            entry = gaz.lookup(name)
            label: str | None = None
            body = m.group("body").lstrip("\\")
            at = sum(ch.isalnum() for ch in ct[a:view.to_clean(m.end("body") - 1) + 1 - len(body)])
            if entry is not None and _same_case_but(name, (entry.name, *entry.aliases), at, len(body)):
                label = METHOD if entry.type == "method" else BENCHMARK
            elif "-" in name:
                label = self._known_with_tail(name)
            if label is None:
                continue
            s, e = view.span_to_orig(a, b)
            if s and text[s - 1] == "\\" and _GREEK_START.match(text, s):
                s -= 1  # the span covers the Greek letter's backslash
            if "$" not in text[s:e] or _IN_URL.search(text, max(0, s - 80), s):
                continue
            s, e = _balance_dollars(text, s, e)
            out.append(_Cand(s, e, label, USED, "gazetteer", _canonical(gaz, name), 0))
        return out

    def _title_echoes(self, ct: str, view: CleanView, sep: int, proposals: list[int],
                      add: Callable[..., None]) -> list[_Cand]:
        """Names the title gives and the abstract proposes.

        A coined word of the title ("Tessera", "GraphTune-2") that the abstract uses again is
        the paper's own when the abstract proposes something; a Title-Case phrase of the title
        ("Shadow Critics") that the abstract gives in lower case right after a proposal verb
        ("we introduce shadow critics, ...") is its name.
        """
        gaz = self.gazetteer
        title = ct[:sep]
        out: list[_Cand] = []
        if not proposals:
            return out
        abstract = ct[sep:]
        for ms, me in _coined_tokens(title):  # the spans of _COINED_TOKEN.finditer(title), found faster
            name = title[ms:me]
            if ms > 0 and not _TITLE_TOOL_BEFORE.search(title, 0, ms):
                continue  # "Local Filtering in MetaFormer": a name in the title's topic is not its own
            # coined shapes only ("GraphTune", "Qwen2"): acronyms and hyphenated Title-Case
            # words of a title are mostly known terms or modifiers ("LLMs", "RGB-D", "Bures-Wasserstein")
            if len(name) < 3 or not _CAMEL.search(name) or not self.is_name(name) or gaz.lookup(name) is not None:
                continue
            if _introduced_in(abstract, name) and not _described_as_known(abstract, name):
                label = self._label_after(ct, me) or METHOD
                add(ms, me, label, PROPOSED, "title_echo", 3)
        phrases = {p.group(0).lower() for p in _TITLE_CASE_RUN.finditer(title)}
        title_low = title.lower()
        for pend in proposals:
            w = _LOWER_PHRASE.match(ct, pend)
            if w is None:
                continue
            words = w.group("phrase").split()
            if words and words[0].lower() in ("the", "a", "an", "our", "this"):
                continue
            for k in range(min(4, len(words)), 1, -1):
                phrase = " ".join(words[:k])
                end = w.start("phrase") + len(phrase)
                # the phrase must end the noun phrase; before a head noun ("... method") only a
                # phrase with a proper name in it ("Hessian aided policy gradient method")
                # the abstract must present the phrase as a name: defined ("shadow critics (SC)"),
                # described ("shadow critics, a family of ..."), or, with a proper name in it,
                # before a head noun ("Hessian aided policy gradient method")
                # before a head noun: a phrase with a proper name in it, or a hyphenated compound
                # ("a fair error-bound scaling approach" under "... with Fair Error-Bound Scaling")
                # or any lower-case phrase that names the title's contribution before a head noun
                # ("we propose an asymmetric replay framework" under "... via Asymmetric Replay")
                hn = _HEAD_NEXT.match(ct, end)
                named_in_title = _title_names(title_low, phrase.lower()) and not _INDEFINITE_GAP.search(ct, pend, w.start("phrase"))
                if not (_ECHO_INTRO.match(ct, end) or (hn is not None and (
                        named_in_title or any(x[:1].isupper() or "-" in x for x in words[:k])))
                        or (named_in_title and _CLAUSE_END.match(ct, end))):
                    if k == len(words) or k == 4:
                        continue  # the longest candidate runs past the noun phrase: try shorter
                    if _head_label(words[k - 1]) is not None and _title_names(title_low, " ".join(words[:k - 1]).lower()) \
                            and not _INDEFINITE_GAP.search(ct, pend, w.start("phrase")):
                        continue  # "an asymmetric replay framework": the title's name before its head noun
                    break
                if hn is not None and (_NAMED_LATER.match(ct, end) or _NAME_APPOSITION.match(ct, hn.end())):
                    break  # "a ... aware optimization method for MMD called MMD-MP": the name follows
                if _head_label(words[k - 1]) is not None and k > 2 \
                        and _title_names(title_low, " ".join(words[:k - 1]).lower()) \
                        and not _INDEFINITE_GAP.search(ct, pend, w.start("phrase")):
                    continue  # "the dynamic sparse rewiring method, which": the title's name before its head
                if _head_label(words[k - 1]) is not None or self._head_is_none(ct, end) \
                        or self._appositive_head(ct, end) == "n":
                    break  # "a mathematical model", "feature discrepancies, a family of measures"
                if (named_in_title or any(_word_in(p, phrase.lower()) for p in phrases)) \
                        and gaz.lookup(phrase) is None \
                        and "-to-" not in phrase \
                        and not _GENERIC_CLASS.search(phrase) and not _NONE_LAST_WORD.search(" " + phrase) \
                        and not _PARADIGM_END.search(phrase) \
                        and not gaz.is_stop(phrase):
                    ps = w.start("phrase")
                    pe = ps + len(phrase)
                    label = self._label_after(ct, pe) or METHOD
                    s, e = view.span_to_orig(ps, pe)
                    out.append(_Cand(s, e, label, PROPOSED, "title_echo", None, 3))
                    break
        return out

    def _benchmark_defs(self, text: str, defs: list[Definition]) -> set[int]:
        """Indices of the definitions that name a benchmark by their head noun or the gazetteer."""
        out = set()
        for i, d in enumerate(defs):
            words = d.long.split()
            title_case = sum(w[:1].isupper() for w in words) >= max(2, len(words) - 1)
            entry = self.gazetteer.lookup(d.long) or self.gazetteer.lookup(d.short)
            if (entry is not None and entry.type == "benchmark") if entry is not None \
                    else _abbreviation_label(d.long, title_case) == BENCHMARK:
                out.add(i)
        return out

    def _title_case_prefix(self, text: str, cs: int, ce: int) -> int | None:
        """Start of a longer name made of capitalised words before a known one, or None.

        Mid-sentence, one or two capitalised words right before a capitalised known name make a named variant
        of it ("baselines like Erased Stable Diffusion", "applied to Phase Space Langevin
        Diffusion", "Split CIFAR-100"). Not after another capitalised word or a bracket (part of
        a longer run: "(Total Correlation VAE)"), not before one ("Frechet Inception Distance"),
        not an evaluative or positional word ("Traditional PCA", "the Upper Transformer"), not a
        known or stop name.
        """
        pm = _CAP_PREFIX.search(text, max(0, cs - 32), cs)
        if pm is None or not text[cs:cs + 1].isupper() or _CAP_AFTER.match(text, ce) is not None:
            return None
        bm = _WORD_BEFORE.search(text, max(0, pm.start() - 30), pm.start())
        prev = bm.group(0).rstrip() if bm is not None else ""
        if not prev or prev[-1] in ".!?:;" or not (prev.endswith(",") or prev.islower()):
            return None  # sentence start, a bracket, or another capitalised word ("Total Correlation VAE")
        words = pm.group(0).split()
        gaz = self.gazetteer
        if any(w.lower() in _NOT_PREFIX_WORDS or _USED_MODS.fullmatch(w) or gaz.is_stop(w)
               or gaz.lookup(w) is not None for w in words):
            return None
        known = text[cs:ce].split()
        if any(gaz.lookup(" ".join(words[i:] + known[:j])) is not None
               for i in range(len(words)) for j in range(1, len(known) + 1)):
            return None  # "Stable Diffusion models", "Multilayer Perceptron": a known name starts in the prefix
        return pm.start()

    def _coined_after_head(self, ct: str, m: re.Match[str], items: list[tuple[int, int]]) -> bool:
        """One coined name right after a singular data head: "the string dataset SyGuS." is named.

        Only a mixed-case coined word (not an acronym, not a plain word: "dataset D1", "benchmark
        tasks") that ends the noun phrase, and that no gazetteer entry types as a method.
        """
        if m.group("open") is not None or len(items) != 1 or ct[m.start():m.end()].split()[0].endswith("s"):
            return False
        a, b = items[0]
        name = ct[a:b]
        entry = self.gazetteer.lookup(name)
        return " " not in name and _CAMEL.search(name) is not None and sum(c.isalpha() for c in name) >= 3 \
            and not name.isupper() and self.is_name(name) and (entry is None or entry.type != "method") \
            and _FOLLOWED_BY_PUNCT.match(ct, b) is not None

    def _name_before_head(self, ct: str, ns: int, ne: int, pend: int, defs: list[Definition],
                          add: Callable[..., None]) -> None:
        """A coined word between a proposal verb and a head noun: "we propose the FavardGNN model".

        The word must be one coined token (not a known name, not a hyphenated modifier such as
        "GNN-based"), the head noun must end the noun phrase, and the word must not occur before
        the proposal (a name used earlier in the abstract, "... SDEs. We propose a new SDE solver",
        is the topic, not the contribution) nor be an acronym the abstract defines, an adjective
        ("a novel PAC-Bayesian framework") or a task shape ("NL-to-code").
        """
        name = ct[ns:ne]
        if " " in name or self.gazetteer.lookup(name) is not None or _MODIFIER_SUFFIX.search(name) \
                or "-to-" in name or (_ADJECTIVE_END.search(name) and not _CAMEL.search(name)) \
                or any(name in (d.short, d.short + "s") for d in defs) or _word_in(ct[:pend], name):
            return
        hn = _HEAD_NEXT.match(ct, ne)
        if hn is None or ct.startswith("-", hn.end()) or _FOLLOWED_BY_NOUN.match(ct, hn.end()):
            return
        label = _head_label(hn.group(0).strip())
        if label is not None:
            add(ns, ne, label, PROPOSED, "propose_head", 5)

    def _colon_list(self, ct: str, pend: int) -> list[tuple[int, int, str]]:
        """Names listed after a colon that closes a proposal's plural head noun phrase.

        "We propose two complementary frameworks for faster sampling: Twin Integrators and Split
        Integrators." Every item must be a coined or Title-Case name no gazetteer knows, and the
        list must end the sentence; otherwise nothing (a colon also introduces descriptions).
        """
        hm = _COLON_HEAD.match(ct, pend, min(len(ct), pend + 200))
        if hm is None:
            return []
        lm = _COLON_ITEMS.match(ct, hm.end())
        if lm is None:
            return []
        items = _list_items(ct, lm.start("list"), lm.end("list"))
        if len(items) < 2 or any(not self.is_name(ct[a:b]) or self.gazetteer.lookup(ct[a:b]) is not None
                                 for a, b in items):
            return []
        label = _head_label(hm.group("head")) or METHOD
        return [(a, b, label) for a, b in items]

    def _cut_at_tool(self, ct: str, ns: int, ne: int) -> int:
        """End of a proposed name without a second name joined by a preposition.

        "We design WebBot with Flan-T5, ...": a Title-Case phrase may hold a connector ("Mixture
        of Experts"), but a coined first word followed by "with/via/on/for ..." and another name
        (known, or coined) is the paper's system and what it is built with or applied to.
        """
        cm = _TOOL_CONNECTOR.match(ct, ns, ne)
        if cm is None or not self.is_name(cm.group("first")):
            return ne
        rest = ct[cm.end():ne]
        if self.gazetteer.lookup(rest) is not None or (" " not in rest and self.is_name(rest)):
            return cm.end("first")
        return ne

    def _modified_known(self, ct: str, pos: int) -> tuple[int, int] | None:
        """Span of "modifier(s) + known method" right after a proposal verb, or None.

        "we propose momentum mirror descent, a ...", "we propose the penalty-based bilevel gradient
        descent algorithm": one to three lower-case modifiers in front of a method the gazetteer
        knows make the paper's own variant of it, when the phrase ends the noun phrase (punctuation,
        a function word, or a method head noun, which stays outside the name). The whole phrase
        must not itself be known ("stochastic gradient descent" is SGD, not a variant of GD), and
        evaluative adjectives ("simple", "improved") are no part of a name.
        """
        mp = _MOD_KNOWN.match(ct, pos)
        if mp is None:
            return None
        words = mp.group("phrase").split()
        w0 = words[0]
        if w0 in _NOT_NAME_MODS or w0 in _PHRASE_STOP or w0 in _CONNECTORS or w0.endswith("ly") \
                or w0.lower() in _HEAD_WORDS:
            return None  # most proposals: "we propose a method ...", "we introduce an approach ..."
        gaz = self.gazetteer
        offs = [mp.start("phrase")]
        for w in words[:-1]:
            offs.append(ct.index(" ", offs[-1]) + 1)
            while ct[offs[-1]] == " ":
                offs[-1] += 1
        for end in range(len(words), 1, -1):
            if words[end - 1].lower() in _HEAD_WORDS and end > 2:
                continue  # "... descent algorithm": the head noun stays outside
            pe = offs[end - 1] + len(words[end - 1])
            if not _MOD_KNOWN_END.match(ct, pe):
                continue
            if gaz.lookup(" ".join(words[:end])) is not None:
                return None  # the whole phrase is a known name
            for k in range(1, min(3, end - 1) + 1):
                mods = words[:k]
                if any(not w.islower() or w in _NOT_NAME_MODS or w in _PHRASE_STOP or w in _CONNECTORS
                       or w.endswith("ly") or _USED_MODS.fullmatch(w) or w.lower() in _HEAD_WORDS
                       for w in mods):
                    break
                entry = gaz.lookup(" ".join(words[k:end]))
                if entry is not None and entry.type == "method" and " " in " ".join(words[k:end]) \
                        and not gaz.is_stop(" ".join(words[k:end])):
                    if _INDEFINITE.match(ct, pos) and _HEAD_NEXT.match(ct, pe):
                        return None  # "a new federated X method": a kind of X described, not a name
                    return offs[0], pe
        return None

    def _appositive_head(self, ct: str, pos: int) -> str | None:
        """Group name ("b", "m", "n") of the last head noun of an appositive after ``pos``."""
        m = _APPOS_AFTER.match(ct, pos, min(len(ct), pos + 120))
        if not m:
            return None
        np = _NP_END.split(m.group(1), maxsplit=1)[0].rstrip()
        whole = _NP_END_BUT_OF.split(m.group(1), maxsplit=1)[0].rstrip()
        if _NONE_LAST_WORD.search(" " + np) or _NONE_LAST_WORD.search(" " + whole):
            return "n"  # "a new family of quality measures"
        heads = list(_HEAD_RE.finditer(np))
        return heads[-1].lastgroup if heads else None

    def _label_after(self, ct: str, pos: int, *, clean: bool = True) -> str | None:
        """Label from an appositive right after a name: ", a novel benchmark" -> BENCHMARK.

        The noun phrase ends at punctuation or a word that starts a modifier ("designed to",
        "that", "for"); its last head noun decides.
        """
        m = _LABEL_AFTER.match(ct, pos, pos + 120)
        if not m:
            return None
        vm = _VERSION_OF.match(m.group(1))
        if vm is not None:  # "MessyGrid, a harder version of GridWorld": the type of what it modifies
            base = self.gazetteer.lookup(vm.group("base"))
            if base is not None:
                return METHOD if base.type == "method" else BENCHMARK
            if _BENCH_SUFFIX.fullmatch(vm.group("base")):
                return BENCHMARK
        phrase = _NP_END.split(m.group(1), maxsplit=1)[0]
        heads = list(_HEAD_RE.finditer(phrase))
        if not heads:
            # "the largest and non-redundant dataset of ...": a coordinated modifier, not two phrases
            heads = list(_HEAD_RE.finditer(_NP_END_BUT_AND.split(m.group(1), maxsplit=1)[0]))
        if not heads:
            return None
        last = heads[-1]
        return BENCHMARK if last.group("b") else METHOD if last.group("m") else None

    @staticmethod
    def _described_proposal(ct: str, start: int, head_end: int, proposal_ends: list[int]) -> bool:
        """A Title-Case phrase before a head noun right after a proposal verb, named later in the
        sentence ("we propose an X Y method ..., dubbed Z"): a description of Z, not a used name."""
        pe = _last_before(proposal_ends, start)
        return pe is not None and start - pe <= 30 and _only_modifiers(ct[pe:start]) \
            and _NAMED_LATER.match(ct, head_end) is not None

    def _trim_generic_tail(self, ct: str, ls: int, le: int) -> int:
        """End of a list item without a generic Title-Case tail after a coined name.

        "ALFRED Household Tasks" is the ALFRED benchmark: the words after a coined first word
        ending in a generic plural ("Tasks", "Games", "Environments") describe it, they do not
        name it.
        """
        words = ct[ls:le].split()
        if len(words) >= 2 and words[-1] in _GENERIC_TAIL and self.is_name(words[0]) \
                and not any(self.is_name(w) for w in words[1:]):
            return ls + len(words[0])
        return le

    def _head_is_none(self, ct: str, pos: int, *, clean: bool = True) -> bool:
        window = ct[pos:pos + 70]
        # "a series of large language models" ends in the method head "language model(s)", not "language"
        m = _NONE_APPOSITIVE.match(window)
        return bool(m and not m.group(2).lower().startswith("language model") and _head_label(m.group(2)) is None)

    def _label_before(self, ct: str, pos: int, *, window: int = 60) -> str | None:
        window = ct[max(0, pos - window):pos]
        brk = window.rfind(". ")
        if brk >= 0:
            window = window[brk + 2:]  # the head noun of another sentence says nothing
        heads = list(_HEAD_RE.finditer(window))
        if not heads:
            return None
        last = heads[-1]
        return BENCHMARK if last.group("b") else METHOD if last.group("m") else None

    # ---------------------------------------------------------------- annotations
    def _set_annotations(self, doc: Doc, text: str, view: CleanView, cands: list[_Cand],
                         defs: list[Definition], coined: list[tuple[int, int]]) -> None:
        # longest first, then the stronger rule; no overlaps
        cands.sort(key=lambda c: (-(c.end - c.start), -c.priority, c.start))
        occupied = bytearray(len(text) + 1)  # linear-time overlap test, whatever the number of candidates
        # the short forms of long forms that name a quantity or a problem ("... Decoupling Coefficient (MADC)")
        quantity_shorts = {entity_key(d.short) for d in defs if _quantity_name(d.long)} if defs else set()
        accepted: list[_Cand] = []
        for c in cands:
            if c.end <= c.start or any(occupied[c.start:c.end]):
                continue
            if c.rule != "gazetteer" and _phenomenon_name(text[c.start:c.end]):
                continue  # a phenomenon the paper names ("The Reversal Curse", "the X Effect") is neither type
            if c.rule != "gazetteer" and (_quantity_name(text[c.start:c.end]) or quantity_shorts
                                          and entity_key(_strip_markup(text[c.start:c.end])) in quantity_shorts):
                continue  # a coefficient, a property or a problem the paper names is neither type
            occupied[c.start:c.end] = b"\x01" * (c.end - c.start)
            accepted.append(c)

        # per-paper key -> role/label/canonical; abbreviation pairs share a key
        group: dict[str, str] = {}
        for d in defs:
            group[entity_key(d.short)] = entity_key(d.long)
        info: dict[str, dict[str, Any]] = {}
        for c in accepted:
            k = _group_key(group, entity_key(_strip_markup(text[c.start:c.end])))
            i = info.setdefault(k, {"role": USED, "labels": defaultdict(int), "canonical": None})
            if c.role == PROPOSED:
                i["role"] = PROPOSED
            i["labels"][c.label] = max(i["labels"][c.label], c.priority + 2)
            if c.canonical and not i["canonical"]:
                i["canonical"] = c.canonical
        # a name right after "a novel", "a new", "the proposed" (a few modifiers between) is the
        # paper's own: "via a novel multi-scale foreground-aware Pyramid Fusion network", "the proposed
        # HT-perceptron layer", "on a proposed Minecraft SkillForge benchmark"
        if "novel" in text or "new" in text or "proposed" in text:
            for c in accepted:
                if c.role != USED or c.rule == "abbreviation" or c.start < 4 or c.rule == "gazetteer" and (
                        "-" not in text[c.start:c.end] or self.gazetteer.lookup(text[c.start:c.end]) is not None):
                    continue  # (a known name grown to its hyphenated word, "HT-perceptron", may be new)
                lo = max(0, c.start - 70)
                if text.find("new", lo, c.start) < 0 and text.find("novel", lo, c.start) < 0 \
                        and text.find("proposed", lo, c.start) < 0:
                    continue  # (three C scans of the window spare the regex search on most candidates)
                nm = _NOVEL_BEFORE.search(text, lo, c.start)
                if nm is None or not _only_modifiers(text[nm.end("novel"):c.start]) \
                        or text[nm.start()] in "Aa" and _APPOS_BEFORE.search(text, max(0, nm.start() - 4), nm.start()):
                    continue  # ("ALAM, a novel ACT framework": the appositive's modifier is the kind, ALAM the name)
                surface = _strip_markup(text[c.start:c.end])
                if not self.is_name(surface) or self.gazetteer.lookup(surface) is not None or "-to-" in surface:
                    continue  # ("a new NL-to-program benchmark": a task shape, not a name)
                info[_group_key(group, entity_key(surface))]["role"] = PROPOSED
        # "the Pose-Aware Control Module", "a Hypermap Extraction Module (HEM)": a module, block or
        # layer with a Title-Case name no list knows is a part of the authors' own system (in the
        # silver batches 27 such names are the paper's own, 4 used, all of them known names)
        if _OWN_PART_HEAD.search(text) and _WE_OR_OUR.search(text):
            for c in accepted:
                if c.role != USED or c.label != METHOD or c.rule == "gazetteer":
                    continue
                surface = _strip_markup(text[c.start:c.end])
                if _OWN_PART_NAME.fullmatch(surface) is None or self.gazetteer.lookup(surface) is not None \
                        or self.gazetteer.lookup(surface.rsplit(" ", 1)[0]) is not None \
                        or _earlier_work_sentence(text, c.start) \
                        or _OTHERS_SYSTEM.search(text, max(0, text.rfind(". ", 0, c.start)), c.start):
                    continue  # ("Transformer Block": a part of a known architecture; "existing
                    # pipelines consist of ... a Span Reader Module": someone else's part)
                info[_group_key(group, entity_key(surface))]["role"] = PROPOSED
        # a proposed name is typed by what its defining sentence says it is ("X, a benchmark for
        # ...", "a new dataset called X"), whatever label the rule that found it guessed
        typed: set[str] = set()
        shaped: list[str] = []  # proposed keys whose name's last word ends in a benchmark word
        for c in sorted(accepted, key=lambda c: c.start):
            if c.role != PROPOSED:
                continue
            k = _group_key(group, entity_key(_strip_markup(text[c.start:c.end])))
            if k in typed:
                continue
            cs, ce = view.to_clean(c.start), view.to_clean(c.end - 1) + 1
            words = view.text[cs:ce].split()
            # a name that says what it is ("Yet Another ICU Benchmark (YAIB), a modular framework")
            # (one that ends in it as a coined word, "EvidenceBench", "FedHPO-Bench", "ToxiBench-10k",
            # waits below until every sentence that gives it had its say)
            label = BENCHMARK if words and _BENCH_NAME_END.fullmatch(words[-1]) else _defining_label(view.text, cs, ce)
            if label is not None:
                typed.add(k)
                info[k]["labels"][label] = 100
            elif words and _BENCH_GLUED_END.search(words[-1]):
                shaped.append(k)
        for k in shaped:
            if k not in typed:
                # "EvidenceBench", "FedHPO-Bench", "LV-Eval", "HumanMotionQA": a name that ends in
                # what it is, when no sentence that gives it says otherwise
                typed.add(k)
                info[k]["labels"][BENCHMARK] = 100
        # the paper's own named variants: "Hedgehog-Llama-2 7B" when "Hedgehog" is proposed
        # in the order of the candidates, not of a set: the choice of a base below must not depend on the hash seed
        own = tuple(dict.fromkeys(text[c.start:c.end] for c in accepted if c.role == PROPOSED and c.end - c.start >= 3))
        # a plural acronym names its singular too: "MOGFN-PC" is a variant of the proposed "MOGFNs"
        own += tuple(o[:-1] for o in own if len(o) >= 4 and o[-1] == "s" and o[-2].isupper() and o[:-1].isupper()
                     and o[:-1] not in own)
        if own:
            for c in accepted:
                surface = text[c.start:c.end]
                if c.role == USED and "-" in surface and any(
                        surface.startswith(o + "-") or surface.endswith("-" + o) for o in own):
                    info[_group_key(group, entity_key(_strip_markup(surface)))]["role"] = PROPOSED
            # a coined word no rule typed that builds on the paper's own name ("VR-A-CODER" after
            # "A-CODER", "SK-Kestrel-Opt") is a named variant of it, and so is a sibling with the
            # same coined first part ("JAW-KLOO" beside "JAW-FCS")
            own_label = {o: c.label for c in accepted for o in (text[c.start:c.end],) if o in own}
            own_label.update({o[:-1]: lab for o, lab in list(own_label.items()) if o[:-1] in own and o[:-1] not in own_label})
            title_end = text.find("\n\n")
            # a lower-case long form names a field as often as a method: no variants of its acronym
            lower_shorts = {d.short for d in defs if d.long.islower()}
            bases = [o for o in own if " " not in o and self.gazetteer.lookup(o) is None and o not in lower_shorts]
            ct = view.text
            for cs, ce in coined:
                if ce < len(ct) and ct[ce] == "+" and any(ct[cs:ce] == o for o in bases):
                    # "MUSE+" beside "MUSE": a "+" after the paper's own name is its named variant
                    ce += 2 if ct.startswith("++", ce) else 1
                    if ce < len(ct) and (ct[ce].isalnum() or ct[ce] == "+"):
                        continue
                elif not bases or ct.find("-", cs, ce) < 0:
                    continue
                s, e = view.span_to_orig(cs, ce)
                surface = text[s:e]
                name = ct[cs:ce]  # markup-free ("JAW-$K$LOO" reads "JAW-KLOO")
                if any(occupied[s:e]) or "\n" in surface:
                    continue
                base = next((o for o in bases if o != name and (
                    name.startswith(o + "-") or name.endswith("-" + o) or f"-{o}-" in name
                    or name in (o + "+", o + "++") or _sibling(o, name))), None)
                rest = name.replace(base or "", "", 1).strip("-")
                if base is None or _MODIFIER_SUFFIX.search(name) or not self.is_name(name) \
                        or rest.isdigit() or _IN_URL.search(text, max(0, s - 80), s) or s < title_end \
                        or (rest.islower() and not self.gazetteer.is_common_word(rest)
                            and not any(ch.isdigit() for ch in rest)) \
                        or self.gazetteer.lookup(name) is not None \
                        or (surface != name and _MATH_NAME.fullmatch(surface) is None):
                    continue  # "VDT-2023" in a repository address, "FUSE-ing" (a pun), a known name
                s, e = _balance_dollars(text, s, e)
                occupied[s:e] = b"\x01" * (e - s)
                accepted.append(_Cand(s, e, own_label[base], PROPOSED, "variant", None, 3))
                k = _group_key(group, entity_key(_strip_markup(text[s:e])))
                i = info.setdefault(k, {"role": PROPOSED, "labels": defaultdict(int), "canonical": None})
                i["labels"][own_label[base]] = max(i["labels"][own_label[base]], 5)

        # repeats: every other occurrence of an accepted surface form (and its abbreviation pair)
        forms: dict[str, str] = {}
        for c in accepted:
            surface = text[c.start:c.end]
            if "\n" not in surface and (not _MARKUP_CHARS.search(surface) or _MATH_NAME.fullmatch(surface)):
                forms[surface] = _group_key(group, entity_key(_strip_markup(surface)))
        for d in defs:
            k = _group_key(group, entity_key(d.long))
            if k in info:
                forms.setdefault(d.short, k)
                forms.setdefault(d.long, k)
        for form, k in sorted(forms.items(), key=lambda kv: -len(kv[0])):
            if k not in info:
                continue
            for s, e in _occurrences(text, form):
                if any(occupied[s:e]) or (s and text[s - 1] == "/" and _IN_URL.search(text, max(0, s - 80), s)):
                    continue
                occupied[s:e] = b"\x01" * (e - s)
                accepted.append(_Cand(s, e, METHOD, info[k]["role"], "repeat", None, -1))

        spans = []
        span_info: dict[str, list[Any]] = {}
        display = _display_names(group, defs, text, accepted)
        plain = not self.make_spans
        # the tokens' start offsets, for doc.char_span's "expand" without a Span per name
        starts = doc.to_array(IDX).tolist() if plain and accepted else []
        labels: dict[str, str] = {}  # the label of each key (its info no longer changes)
        for c in sorted(accepted, key=lambda c: c.start):
            k = _group_key(group, entity_key(_strip_markup(text[c.start:c.end])))
            i = info.get(k)
            if i is None:
                continue
            label = labels.get(k)
            if label is None:
                label = labels[k] = max(sorted(i["labels"]), key=lambda lab: i["labels"][lab])
            if label not in self.labels:
                continue
            cs, ce = c.start, c.end
            if cs and text[cs - 1] == "_" and ce < len(text) and text[ce] == "_":
                # Markdown's underscores are word characters: "__Resona__" is one word, and the
                # annotators' span covers its marks (the name stays "Resona")
                w = 2 if text.startswith("__", cs - 2) and text.startswith("__", ce) else 1
                if _underscore_mark(text, cs - 1 - (w - 1), -1) and _underscore_mark(text, ce + w - 1, 1):
                    cs, ce = cs - w, ce + w
            got = expand_to_tokens(starts, text, cs, ce) if plain else None
            if got is None:
                span = doc.char_span(cs, ce, label=label, alignment_mode="expand")
                if span is None:
                    continue
                ss, se = span.start_char, span.end_char
            else:
                ss, se = got[2], got[3]
            span_info[f"{ss}:{se}:{label}"] = [i["role"], i["canonical"] or display.get(k, k), c.rule, [cs, ce]]
            spans.append((ss, se, label) if plain else span)
        if plain:
            doc.user_data.setdefault(PLAIN_SPANS_KEY, {})[self.spans_key] = spans
        else:
            doc.spans[self.spans_key] = spans
        doc.user_data.setdefault(INFO_KEY, {}).update(span_info)

        # coined names left untyped, for corpus-level consolidation
        cand_list = []
        for cs, ce in coined:
            s, e = view.span_to_orig(cs, ce)
            if any(occupied[s:e]):
                continue
            surface = text[s:e]
            if self.is_name(surface) and not _not_corpus_name(surface):
                cand_list.append((s, e))
        doc.user_data[CANDIDATES_KEY] = cand_list


#: short forms that are never left as untyped candidates (see the data file)
_NOT_CORPUS_NAMES_PATH = Path(__file__).resolve().parent / "data" / "not_corpus_names.txt"


@lru_cache(maxsize=1)
def _not_corpus_names() -> frozenset[str]:
    lines = _NOT_CORPUS_NAMES_PATH.read_text(encoding="utf-8").splitlines()
    return frozenset(s for s in (ln.strip() for ln in lines) if s and not s.startswith("#"))


def _not_corpus_name(surface: str) -> bool:
    """Is ``surface`` a short form of something that is no method or benchmark ("PET", "ICUs", "FP8",
    "TPR")? Such a word is no candidate for corpus consolidation: an abstract that means the
    method of these letters defines it, and its own rules find it."""
    names = _not_corpus_names()
    return surface in names or (surface.endswith("s") and surface[:-1] in names)


#: an acronym of three to eight capitals (digits after the first): a stoplisted one may still be a paper's own name
_OWN_STOP_NAME = re.compile(r"[A-Z][A-Z0-9]{2,7}")
_COINED_REST = r"(?:\w*?[A-Z0-9]\w*+|\w*+(?=-[A-Z0-9]))(?:-\w++)*+"
_COINED_UPPER = re.compile(r"[A-Z](?<![\w\\$.-].)" + _COINED_REST)
_COINED_LOWER = re.compile(r"[a-z]++(?=[A-Z0-9_])" + _COINED_REST)
_LOWER_THEN_CAP = re.compile(r"[A-Z0-9_](?<=[a-z].)")


def _coined_tokens(t: str) -> list[tuple[int, int]]:
    """The spans of ``_COINED_TOKEN.finditer(t)``, found faster."""
    out = [m.span() for m in _COINED_UPPER.finditer(t)]
    extra = []
    last = -1
    for h in _LOWER_THEN_CAP.finditer(t):
        q = h.start() - 1
        while q > 0 and "a" <= t[q - 1] <= "z":
            q -= 1
        if q <= last or (q > 0 and (t[q - 1].isalnum() or t[q - 1] in "_\\$.-")):
            continue
        m = _COINED_LOWER.match(t, q)
        if m:
            extra.append(m.span())
            last = m.end() - 1
    return sorted(out + extra) if extra else out


@lru_cache(maxsize=1 << 14)
def _content_words(s: str) -> frozenset[str]:
    return frozenset({w.rstrip("s") for w in re.findall(r"[a-z]{3,}", s.lower())} - {"with", "from", "for", "the", "and"})


def _other_long_form(long: str, entry: Any) -> bool:
    """Does ``long`` (an abstract's own expansion of an acronym) name something else than ``entry``?

    It does when the entry has long forms and none shares half of its content words.
    """
    mine = _content_words(long)
    forms = [f for f in (entry.name, *entry.aliases) if " " in f or "-" in f]
    if not forms or not mine:
        return False
    return all(2 * len(mine & _content_words(f)) < len(mine) for f in forms)


def _canonical(gaz: Gazetteer, surface: str) -> str | None:
    """The gazetteer name for a surface that is a spelling or an abbreviation of it, else None.

    Versions are different entities ("Llama-2 7B" is not "Llama"), so only the same letters
    ("MoEs"/"MoE") or an acronym/long-form pair ("MoE"/"Mixture-of-Experts") map to the name.
    """
    entry = gaz.lookup(surface)
    if entry is None:
        return None
    if entity_key(surface) == entity_key(entry.name):
        return entry.name
    short, long = (surface, entry.name) if len(surface) < len(entry.name) else (entry.name, surface)
    if (" " not in short and "-" not in short.strip("-") and len(_SPACE_OR_HYPHEN.split(long)) >= 2
            and not long.lower().startswith(short.lower()) and sum(c.isupper() for c in short) >= 2
            and 2 * sum(c.isupper() for c in short) >= sum(c.isalpha() for c in short)
            and best_long_form(short.rstrip("s"), long) == long):
        return entry.name
    return None


_MODIFIER_SUFFIX = re.compile(
    r"-(?:based|style|like|type|driven|guided|free|aware|inspired|specific|level|agnostic|only|"
    r"augmented|enhanced|powered|generated|trained|tuned|pretrained|compatible|friendly|centric|"
    r"dependent|independent|related|oriented|induced|equipped|assisted|scale|sized|class|family|"
    r"variants?|series|models?|architectures?|[a-z]+ed)$", re.IGNORECASE)


_PRIOR_SUBJECT = re.compile(r"\s*(?:Prior|Previous|Earlier|Existing|Recent|Past)\s+(?:work|works|studies|research|"
                            r"methods|approaches|literature|papers)\b")
_WE = re.compile(r"\b(?:we|our|us)\b", re.IGNORECASE)
_THEY_NAMING = re.compile(r"\b(?:they|authors)\s+(?:call|called|dub|dubbed|name|named|term|termed|coin|coined|refer)\b")


def _earlier_work_sentence(text: str, pos: int) -> bool:
    """Is the name at ``pos`` given in a sentence about others' work?

    "Prior work has designed a mechanism, called the X (ABC) mechanism, ..." and "... which they
    dubbed X": the sentence's subject is earlier work (and the authors do not speak), or the
    naming verb's subject is "they".
    """
    lo = max(0, pos - 300)
    k = max(text.rfind(". ", lo, pos), text.rfind("\n", lo, pos))
    sent = text[k + 1 if k >= 0 else lo:pos]
    if _THEY_NAMING.search(sent, max(0, len(sent) - 60)):
        return True
    return _PRIOR_SUBJECT.match(sent) is not None and _WE.search(sent) is None


#: the words _CALLED starts with
_CALLED_ANCHORS = ("namely", "called", "dubbed", "named", "termed", "coined", "which", "We", "we", "and",
                   "referred", "denoted")


def _called_matches(ct: str) -> list[re.Match[str]]:
    """``_CALLED.finditer(ct)`` (same matches), tried only where one of its first words starts."""
    starts = []
    for anchor in _CALLED_ANCHORS:
        i = ct.find(anchor)
        while i >= 0:
            starts.append(i)
            i = ct.find(anchor, i + 1)
    starts.sort()
    out = []
    end = 0
    for i in starts:
        if i < end:
            continue
        m = _CALLED.match(ct, i)
        if m is not None and m.end() > m.start():
            out.append(m)
            end = m.end()
    return out


def _anchored_finditer(rx: re.Pattern[str], text: str, anchors: tuple[str, ...],
                       anchors_after: tuple[str, ...] = ()) -> list[re.Match[str]]:
    """``rx.finditer(text)`` (the same matches), for a pattern that matches no empty string and
    whose every match starts where one of ``anchors`` starts, or one character before one of
    ``anchors_after``.

    ``rx`` is tried only there (``str.find`` skips to them in C), in text order and never inside
    the previous match, which is what ``finditer`` does: a pattern that starts with ``\\b``, a
    look-behind or ``\\s`` is otherwise tried at every position of the text (~15 ns each).
    """
    starts = set()
    for anchor in anchors:
        i = text.find(anchor)
        while i >= 0:
            starts.add(i)
            i = text.find(anchor, i + 1)
    for anchor in anchors_after:
        i = text.find(anchor, 1)
        while i >= 0:
            starts.add(i - 1)
            i = text.find(anchor, i + 1)
    out = []
    end = 0
    for i in sorted(starts):
        if i < end:
            continue
        m = rx.match(text, i)
        if m is not None and m.end() > m.start():
            out.append(m)
            end = m.end()
    return out


def _proposal_ends(ct: str) -> list[int]:
    """Where the proposal verbs end (the name follows), in text order."""
    ends = []
    for anchor in _PROPOSE_ANCHORS:  # str.find skips to the few candidate positions
        i = ct.find(anchor)
        while i >= 0:
            if i == 0 or not (ct[i - 1].isalnum() or ct[i - 1] == "_"):
                m = _PROPOSE.match(ct, i)
                if m is not None:
                    ends.append(m.end())
            i = ct.find(anchor, i + 1)
    if len(ends) > 1:
        ends.sort()
    more = [m.end() for m in _PROPOSE_AND.finditer(ct) if m.start() == 0 or not ct[m.start() - 1].isalnum()]
    more += [m.end() for m in _PROPOSE_TO.finditer(ct) if _OBJECT_BEFORE.search(ct, max(0, m.start() - 6), m.start())]
    if "by " in ct:
        for m in _PROPOSE_BY.finditer(ct):  # the authors must speak in the sentence ("DMs work by constructing")
            if m.start() and (ct[m.start() - 1].isalnum() or ct[m.start() - 1] == "_"):
                continue  # "standby designing": not the word "by"
            lo = max(0, m.start() - 300)
            k = max(ct.rfind(". ", lo, m.start()), ct.rfind("\n", lo, m.start()))
            if _WE.search(ct, k + 1 if k >= 0 else lo, m.start()):
                more.append(m.end())
    return sorted(set(ends + more)) if more else ends


def _sibling(own: str, name: str) -> bool:
    """Do two hyphenated coined names share a coined first part ("JAW-FCS", "JAW-KLOO")?"""
    head, sep, tail = own.partition("-")
    other = name[len(head) + 1:]
    return bool(sep) and len(head) >= 3 and name.startswith(head + "-") and tail != "" and other != "" \
        and not head.islower() and not head.istitle() and not other.islower()  # "AUC-maximization": a word


def _respellings(abstract: str, name: str) -> tuple[list[tuple[int, int]], bool]:
    """Where ``abstract`` writes the title's one-word ``name`` in another case ("CRYSTAL" for
    "Crystal"), and whether it gives the name with a size or version ("Zephyr-7B", "Tool-2")."""
    low = abstract.lower()
    key = name.lower()
    spans = []
    versioned = False
    n = len(abstract)
    i = low.find(key)
    while i >= 0:
        e = i + len(key)
        if i == 0 or not (abstract[i - 1].isalnum() or abstract[i - 1] in "-_"):
            if e < n and abstract[e] == "-" and _SIZE_OR_VERSION.match(abstract, e + 1):
                versioned = True
            elif (e == n or not (abstract[e].isalnum() or abstract[e] in "-_")) and abstract[i:e] != name \
                    and not abstract[i:e].islower():  # "fairwashing" for "Fairwashing": a common noun
                spans.append((i, e))
        i = low.find(key, i + 1)
    return spans, versioned


_SIZE_OR_VERSION = re.compile(r"(?:v?\d+(?:\.\d+)*[BMbmKk]?|[A-Z]?\d+[A-Za-z]?)(?![\w-])")


#: the longest name the release and math lookups read
_MAX_NAME_LEN = 60
#: a short piece of inline math that may be part of a name: a letter, a Greek letter or a number
_SHORT_MATH = re.compile(rf"\$(?P<body>[A-Za-z]|\\(?:{GREEK_LETTERS})|\d+(?:\.\d+)?)\$")
#: one hyphen-joined part after a known model's name that keeps it one release: a size, a
#: context length, a version, or a release word ("-6B", "-200k", "-v1", "-Instruct")
_RELEASE_PART = re.compile(r"\d+(?:\.\d+)?[BMKbmk]?|v\d+(?:\.\d+)*|(?:Instruct|Chat|Base|Turbo|it|hf|Preview)")
_DECIMAL_TAIL = re.compile(r"(?:\.\d+)+(?!\w|\.\d)")


def _same_case_but(name: str, forms: tuple[str, ...], at: int, n: int) -> bool:
    """Does ``name`` spell one of ``forms`` letter for letter, in the same case except for the
    ``n`` letters from the ``at``-th (the math letter: "$K$-means" is "k-means"; "$c$-OT" is not
    "CoT")? Hyphens and spaces do not count ("$k$WL" is "k-WL")."""
    x = case_shape(name)
    for form in forms:
        f = case_shape(form.translate(GREEK_NAMES))
        if len(f) == len(x) and f[:at] == x[:at] and f[at + n:] == x[at + n:] \
                and f[at:at + n].lower() == x[at:at + n].lower():
            return True
    return False


def _release_end(ct: str, ce: int) -> int:
    """The end of a known model's release name whose coined token stopped at a decimal point:
    "Qwen-2" + ".5-72B", "LLaMA-3" + ".1-8B" (the version, then hyphen-joined sizes and a size
    after a space)."""
    dm = _DECIMAL_TAIL.match(ct, ce)
    if dm is None:
        return ce
    _s, end = _extend_hyphenated(ct, 0 if ce == 0 else ce - 1, dm.end())
    sm = _SIZE.match(ct, end)
    return sm.end() if sm else end


def _balance_dollars(text: str, s: int, e: int) -> tuple[int, int]:
    """Take in the ``$`` that opens or closes the math inside a name ("$k$-NN", "PILOT$^+$")."""
    if text.count("$", s, e) % 2:
        if e < len(text) and text[e] == "$":
            e += 1
        elif s > 0 and text[s - 1] == "$":
            s -= 1
    return s, e


def _trim_modifier(ct: str, cs: int, ce: int) -> tuple[int, int]:
    """"BERT-based" -> "BERT": a modifier glued by a hyphen is not part of the name."""
    m = _MODIFIER_SUFFIX.search(ct, cs, ce)
    return (cs, m.start()) if m else (cs, ce)


def _extend_hyphenated(text: str, s: int, e: int) -> tuple[int, int]:
    """Grow a gazetteer match to the whole hyphenated word ("T2T-ViT", "SNLI-VE", "DeiT-small"),
    but not over a modifier ("BERT-based")."""
    # a phrase ("diffusion model") is not grown to the left: "Stable-Diffusion model" is another name
    while s >= 2 and text[s - 1] == "-" and text[s - 2].isalnum() and " " not in text[s:e]:
        k = s - 2
        while k > 0 and (text[k - 1].isalnum() or text[k - 1] == "."):
            k -= 1
        if text[k:s - 1].islower() and not any(c.isdigit() for c in text[k:s - 1]):
            break  # "miniature-AlexNet", "sub-MLPs": a lower-case word is a modifier
        s = k
    while e < len(text) - 1 and text[e] == "-" and text[e + 1].isalnum():
        k = e + 1
        while k < len(text) and (text[k].isalnum() or (text[k] == "." and k + 1 < len(text) and text[k + 1].isdigit())):
            k += 1
        if _MODIFIER_SUFFIX.fullmatch(text[e:k]) or (text[e + 1:k].islower() and text.endswith("ing", e, k)):
            break  # "BERT-based", "NTK-approximating"
        e = k
    return s, e


_MARKUP_CHARS = re.compile(r"[\\{}$*]")
#: head nouns that follow a method's name without being part of it ("the Viterbi algorithm")
_GENERIC_HEAD_WORDS = frozenset(("algorithm", "algorithms", "method", "methods", "optimizer", "optimiser",
                                 "procedure", "scheme"))
_CONNECTORS = {"of", "for", "to", "and", "in", "on", "via", "with", "the", "a", "an", "by", "from"}


# Round 11: the last word of a name a paper gives a quantity, a property or a problem class
# (GUIDELINES: metrics and measures, properties and problem classes are neither type): "Multi-Agent
# Decoupling Coefficient (MADC)", "Unique Disparity", "Class-Constrained Bin Packing Problem", "total
# effective resistance"
# (not "score": "Delta Denoising Score" and "GPS (Graph Propensity Score) rewiring" are methods)
_QUANTITY_NAMES = frozenset(("coefficient", "coefficients", "disparity", "disparities", "concentration",
                             "resistance", "independence", "amplification", "problem"))


_QUANTITY_TAILS = frozenset(w[-4:] for w in _QUANTITY_NAMES)


def _quantity_name(name: str) -> bool:
    """Is ``name`` a phrase a paper gives a quantity, a property or a problem ("X Coefficient", "X Problem")?"""
    if name[-4:].lower() not in _QUANTITY_TAILS and name[-1:].isalnum():
        return False  # the common case, without stripping markup
    words = _strip_markup(name).split()
    return len(words) >= 2 and words[-1].lower() in _QUANTITY_NAMES and (words[-1].islower() or words[-1].istitle())


def _phenomenon_name(name: str) -> bool:
    """Is ``name`` a phrase a paper gives a phenomenon ("The Reversal Curse", "Lottery Ticket Hypothesis")?"""
    words = name.split()
    return len(words) >= 2 and words[-1].lower() in _PHENOMENON_NAMES and (words[-1].islower() or words[-1].istitle())


def _last_before(sorted_positions: list[int], pos: int) -> int | None:
    """The largest position <= ``pos`` (bisection keeps long texts linear)."""
    import bisect

    k = bisect.bisect_right(sorted_positions, pos)
    return sorted_positions[k - 1] if k else None


def _title_rest_label(rest: str) -> str | None:
    """The type a title's subtitle gives the name before its colon: its first head noun, unless
    that head is the object of a preposition ("X: Deep Learning for Tabular Datasets" names a
    method for data sets, not a data set)."""
    m = _HEAD_RE.search(rest)
    if m is None:
        return None
    if m.group("b") and _PREP_BEFORE_HEAD.search(rest, 0, m.start()):
        return None
    return _head_label(m.group(0))


#: a preposition among the words before a subtitle's head noun ("for Tabular Datasets")
_PREP_BEFORE_HEAD = re.compile(r"\b(?:for|on|of|from|with|in|across|over|via|to|using|under)\s+(?:[\w-]+\s+){0,4}$",
                               re.IGNORECASE)


def _skip_function_words(ct: str, ls: int, le: int) -> int:
    """Move a list item's start past capitalised function words ("On the", "Both", "All")."""
    while True:
        m = _FIRST_WORD.match(ct, ls, le)
        if m is None or m.group(1).lower() not in _LEADING_STOP or m.end() >= le:
            return ls
        ls = m.end()


_FIRST_WORD = re.compile(r"([A-Za-z]+)\s+")
#: an acronym before a task-like head noun ("XMC tasks", "VFL settings", "the DML literature"): the
#: abstract uses it as the name of a task or field, so "XMC benchmarks" are that task's data sets
#: (in silver + dev gold, 19 of 20 such "ACR datasets/benchmarks" are unlabelled; the one labelled is
#: a known name)
_TASK_TOKEN = re.compile(r"(?<![\w-])(?P<a>[A-Z][\w-]*[A-Z][\w-]*)\)?\s+(?P<head>tasks?|problems?|settings?|scenarios?|"
                         r"research|literature|community|field|domain)\b"
                         r"|\btasks? of (?:the )?(?P<f>[A-Z][\w-]*[A-Z][\w-]*)(?![\w-])")
#: "the [adjectives] NAME task words HEAD": a coined name, one or two lower-case task words, a singular
#: data head noun (searched in a window that ends at a data head word)
_NAME_TASK_HEAD = re.compile(
    r"\b[Tt]he (?:[a-z][a-z-]+ ){0,2}(?P<name>[A-Z][\w-]*[A-Z0-9][\w-]*|[A-Z][a-z]+[A-Z][\w-]*)"
    r" (?P<mods>(?!(?:and|or|for|to|on|in|of|with|is|are|was|were|has|have|that|which|as|by|from|at)\b)[a-z][a-z-]+(?<!ed)"
    r"(?: (?!(?:and|or|for|to|on|in|of|with)\b)[a-z][a-z-]+(?<!ed))?)"
    r" (?:benchmark|dataset|data set|corpus|suite|environment|testbed|leaderboard|challenge)$")
_FIELD_NOUNS = frozenset(("research", "literature", "community", "field"))
#: a language adjective before a coined data set name is the subset's language, not a part of the
#: name: "the English BBQ dataset", "the English-only RULER benchmark" (a Title-Case word after it,
#: "English Gigaword", stays one name; a long form "Multilingual SUPERB (ML-SUPERB)" types itself)
_LANGUAGE_PREFIX = re.compile(
    r"(?:English|Chinese|Japanese|Korean|German|French|Spanish|Italian|Portuguese|Russian|Arabic|Hindi|"
    r"Vietnamese|Indonesian|Turkish|Dutch|Polish|Swedish|Multilingual|Monolingual|Bilingual)"
    r"(?:-only|-language)?\s+(?=[A-Z][a-z]*[A-Z0-9])")
_LEADING_STOP = frozenset(
    "on in at for we our all both the a an this these its their from with using across over and or of "
    "experiments results extensive further several various multiple two three four five six".split())


def _sentence_initial(ct: str, pos: int) -> bool:
    """Is ``pos`` the first word of a sentence (where every word is capitalised)?"""
    k = pos - 1
    while k >= 0 and ct[k] in " \t\"'(“":
        k -= 1
    return k < 0 or ct[k] in ".!?:\n"


#: Capitalised words that start "X dataset" without naming one.
_NOT_DATASET_WORDS = frozenset(
    "the this these those our their its each all both real synthetic large small public standard benchmark "
    "other new two three four five several many most some such image images text training test validation "
    "different multiple existing popular various same original full entire whole unlabeled labeled "
    "additional further larger smaller open custom private proprietary toy simulated reference".split())


def _skip_markup(text: str, pos: int) -> int:
    """The position after closing markup (``}``, ``*``, ``$``) that follows ``pos``."""
    while pos < len(text) and text[pos] in "}*$_":
        pos += 1
    return pos


def _underscore_mark(text: str, i: int, step: int) -> bool:
    """Is ``text[i]`` an underscore emphasis mark ("__Resona__"): underscores, then no word character?"""
    k = i
    while 0 <= k < len(text) and text[k] == "_" and abs(k - i) < 2:
        k += step
    return k != i and (k < 0 or k >= len(text) or not (text[k].isalnum() or text[k] == "_"))


def _occurrences(text: str, form: str) -> Iterable[tuple[int, int]]:
    """Whole-word occurrences of ``form`` (a plural "s" included) by ``str.find``."""
    n = len(text)
    i = text.find(form)
    while i >= 0:
        e = i + len(form)
        if e < n and text[e] == "s" and (e + 1 == n or not (text[e + 1].isalnum() or text[e + 1] in "-_")):
            e += 1
        ok_left = i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "-_") or _underscore_mark(text, i - 1, -1)
        ok_right = e == n or not (text[e].isalnum() or text[e] in "-_") or _underscore_mark(text, e, 1)
        if ok_left and ok_right:
            yield i, e
        i = text.find(form, i + 1)


def _described_as_known(abstract: str, name: str) -> bool:
    """Does the abstract describe ``name`` as existing work ("TikZ, a well-known graphics language")?"""
    for s, e in _occurrences(abstract, name):
        m = _APPOS_AFTER.match(abstract, e, min(len(abstract), e + 80))
        if m is not None and _USED_MODS.search(m.group(0)):
            return True
    return False


def _introduced_in(abstract: str, name: str) -> bool:
    """Does the abstract use ``name`` as its own: sentence subject, "our X", "X, a/an/the", "X ("?"""
    for s, e in _occurrences(abstract, name):
        if e - s != len(name):
            continue  # a plural is a class of things ("Multi-LiDARs")
        before = abstract[max(0, s - 6):s]
        if _sentence_initial(abstract, s) or before.lower().endswith("our ") or \
                _INTRO_AFTER.match(abstract, e):
            return True
    return False


_SENTENCE_ADVERBS = frozenset(
    "then thus hence here next finally first second third also moreover furthermore additionally "
    "specifically therefore consequently accordingly subsequently instead our the this".split())
# after a proposal verb: optional determiners, then up to seven words (a modifier and a known method)
# "in" right before a long form: the setting of a proposal, not the proposal ("... in Multi-Agent RL (MARL)")
# "the recently-proposed X (ABC)", "the widely used X (ABC)": someone else's
_EARLIER_BEFORE = re.compile(r"\b(?:recently[\s-](?:proposed|introduced|developed)|previously[\s-](?:proposed|introduced)|"
                             r"existing|prior|previous|popular|classical|classic|well-known|standard|widely[\s-]used)"
                             r"\s+(?:[\w-]+\s+){0,2}$", re.IGNORECASE)
# "to perform X (ABC)", "for minimizing the X (ABC) objective": the object of a purpose clause
_PURPOSE_BEFORE = re.compile(r"\b(?:to\s+[a-z]+|(?:for|by)\s+[a-z]+ing)\s+(?:the\s+|an?\s+)?$")
# between two definitions: the second is a component of the first ("X (ABC) consists of two parts: (1) ...")
_COMPONENT_CUE = re.compile(r"\b(?:consists? of|consisting of|compris(?:es|ing)|composed of|components?|modules?)\b")


def _first_named_since(text: str, defs: list, start: int, di: int) -> bool:
    """Is definition ``di`` the first name given after an unnamed proposal ending at ``start``?

    Definitions between them count only when they are coordinated with it ("two novel algorithms,
    Long A (A) and Long B (B)") or it is one of their components ("X (ABC) consists of: (1) ...").
    """
    prev = [o for o in defs[:di] if start <= o.long_start]
    if not prev:
        return True
    gap_start = prev[-1].short_end
    return _DEF_COORD.fullmatch(text, gap_start, defs[di].long_start) is not None \
        or _COMPONENT_CUE.search(text, prev[0].short_end, defs[di].long_start) is not None

_TOPIC_BEFORE = re.compile(r"\b(?:in|within)\s+(?:the\s+)?$")
_INDEFINITE = re.compile(r"\s+(?:an?\s|(?:novel|new)\s)")
_MOD_KNOWN = re.compile(r"\s+(?:(?:the|a|an|our|novel|new)\s+){0,2}(?P<phrase>[a-z][\w-]*+(?:\s+[A-Za-z][\w-]*+){1,6})")
_MOD_KNOWN_END = re.compile(r"\s*(?:[,.;:(]|--|—|$)|\s+(?:to|for|that|which|with|and|on|in|as|by|under|"
                            r"algorithms?|methods?|schemes?|procedures?|updates?)\b")
#: evaluative or generic adjectives: no part of a variant's name
_NOT_NAME_MODS = frozenset(
    "simple simpler efficient effective improved modified better faster general generic unified principled "
    "practical scalable novel new standard vanilla plain naive original classical existing proposed our the "
    "a an this that two three several various different any all such other first second special "
    "using leverage leveraging via towards foundations how what why when where whether which who".split())
_VERSION_OF = re.compile(rf"(?:[\w-]+\s+){{0,3}}(?:version|variant|extension|modification|adaptation)\s+of\s+"
                         rf"(?:the\s+)?(?P<base>{_NAME})")
_HEAD_AT_END = re.compile(rf"\s+(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})$")
# "a novel FoldRank algorithm", "the new Sparse KRR estimator": a name between "new" and a head noun
# (literal-first: found from "novel"/"new", the determiner before is checked after)
_NEW_NAME_HEAD = re.compile(
    rf"(?:novel|new|newly proposed) (?P<name>{_TITLE_PHRASE}|{_NAME})\s+(?P<head>{_METHOD_HEADS}|{_BENCH_HEADS})\b")
_DET_BEFORE = re.compile(r"(?:^|(?<=\W))(?:[Aa]n?|[Tt]he|[Oo]ur)\s+$")
_PASSIVE_NAME = re.compile(rf"(?<![\w-])(?P<name>{_TITLE_PHRASE}|{_NAME})$")
_TITLE_TOOL_BEFORE = re.compile(r"\b(?:with|via|using|through)\s+$", re.IGNORECASE)
# where a title gives its contribution as a whole noun phrase: at its start, after a colon or
# quote, or after a tool preposition ("... via Mollifier Smoothing"); not the topic after "for",
# "of", "on" ("... for Deep Imbalanced Clustering") nor inside a longer noun phrase
_TITLE_NP_BEFORE = re.compile(r"(?:^|[:\"“]\s*|(?:^|\s)(?:via|with|using|through|by|from|and|an?|the)\s+)$")
_TITLE_NP_AFTER = re.compile(r"s?(?:$|\s*[:,.?!()\"”]|-based\b|\s+(?:for|to|with|via|in|on|under|through|using|"
                             r"from|as|and|is|are|of|at|against|without|beyond)\b)")
# "Graph Generation with K-Trees", "Image Clustering via ...": the task the title's tool serves
_TITLE_TASK_AFTER = re.compile(r"s?\s+(?:with|via|through|using|by)\b")
_TITLE_NP_START = re.compile(r"(?:^|[:\"“]\s*)$")
_PHRASE_EDGE_STOP = frozenset("and or of for to with the a an in on by via from as".split())


def _title_names(title_low: str, phrase: str) -> bool:
    """Does the lower-cased title give ``phrase`` (lower case, two words or more) as its
    contribution: a whole noun phrase of the title (:data:`_TITLE_NP_BEFORE`,
    :data:`_TITLE_NP_AFTER`), not the task at its start that a tool after "with/via" serves?"""
    words = phrase.split()
    if len(words) < 2 or words[0] in _PHRASE_EDGE_STOP or words[-1] in _PHRASE_EDGE_STOP \
            or _FIELD_END.search(phrase) or _TASK_END.search(phrase):
        return False  # "unsupervised skill discovery": the task, not a name
    i = title_low.find(phrase)
    while i >= 0:
        e = i + len(phrase)
        if _TITLE_NP_BEFORE.search(title_low, 0, i) and _TITLE_NP_AFTER.match(title_low, e) \
                and not (_TITLE_NP_START.search(title_low, 0, i) and _TITLE_TASK_AFTER.match(title_low, e)):
            return True
        i = title_low.find(phrase, i + 1)
    return False


_NP_END_BUT_OF = re.compile(r"\s(?:that|which|to|for|with|designed|built|based|in|on|from|and|where|by|"
                            r"using|capable|across|tailored|aimed)\s", re.IGNORECASE)
_LABEL_AFTER = re.compile(r"\s*(?:\([^()]{1,20}\)\s*)?(?:,|:|--|—|–|-)?\s*(?:(?:is|as|both|also)\s+)?"
                          r"(?:a|an|the|our)\s+([^,.;:()\n]*)")
_NP_END_BUT_AND = re.compile(r"\s(?:that|which|to|for|with|of|designed|built|based|in|on|from|where|by|"
                             r"trained|capable|consisting|comprising|covering|containing|spanning|"
                             r"including|across|using|tailored|aimed|enabling|allowing)\s", re.IGNORECASE)
_APPOS_AFTER = re.compile(r"\s*(?:\([^()]{1,20}\)\s*)?(?:,|:|--|—|–|-)?\s*(?:(?:is|as)\s+)?(?:a|an|the|our)\s+"
                          r"([^,.;:()\n]*)")
_INTRO_AFTER = re.compile(r"\s*(?:\(|,\s*(?:a|an|the|which)\s|:\s)")


#: Round 8: the type of a proposed name from what its defining sentence says it is.
# quantifier heads: "a collection of reproducing kernel Hilbert spaces" is typed by what follows "of"
_QUANTIFIER_OF = re.compile(r"(?:collection|family|suite|set|series|class|pair)s?\s+of\s+", re.IGNORECASE)
# a tool-like head whose purpose is evaluation: "a framework for evaluating ...", "a platform for
# automatic evaluation of ...", "an evaluation protocol", "a benchmarking methodology"
_TOOL_HEADS = frozenset(("framework", "frameworks", "protocol", "platform", "methodology", "toolkit", "toolbox",
                         "library", "system", "pipeline", "tool", "suite", "testbed", "simulator", "environment",
                         "environments", "evaluation", "strategy"))
_EVAL_PURPOSE = re.compile(r"[\s,]*(?:which\s+|that\s+)?(?:(?:tailored|designed|built|developed)\s+)?(?:for|to)\s+"
                           r"(?:the\s+|a\s+|an\s+)?(?:(?![\w-]+ing\s)[\w-]+\s+){0,2}?"
                           r"(?:evaluat|assess|benchmark|measur|investigat|diagnos|test(?:s|ing)?\b)", re.IGNORECASE)
_EVAL_MODIFIER = re.compile(r"\b(?:evaluation|benchmarking|assessment|testing)\s+$", re.IGNORECASE)
_DEF_APPOS = re.compile(r"[\"”'*}_]*\s*(?:\([^()\n]{1,120}\)\s*)?(?:,|:|--|—|–|\s-)\s*(?:(?:which|that)\s+is\s+)?"
                        r"(?:a|an|the|our|the first)\s+(?P<np>[^.;:()\n]{1,120})")
_DEF_HEAD_AFTER = re.compile(r"[\"”'*}_]*\s+(?P<head>[\w-]+)(?=\s*[,.;:()]|\s+(?:that|which|to|for|with|of|in|on|from|and|"
                             r"where|by|is|are|was|comprising|consisting|containing|covering|built|designed|based|"
                             r"tailored|called|named)\b)")
#: a benchmark or data word glued to the end of a coined name, with an optional size or version
#: after it ("EvidenceBench-100k", "FedHPO-Bench", "UnStereoEval", "TruthfulQA", "CodeDatasets"; not
#: "Bench" alone); "QA" only after a lower-case letter ("NS-VQA", "Concept-QA" and "GQA" are methods)
_BENCH_GLUED_END = re.compile(r"(?<=[A-Za-z0-9])-?(?:Bench|bench|Benchmark|Eval)(?:-[\w.]+)?$"
                              r"|(?<=[a-z])QA(?:-[\w.]+)?$"
                              r"|(?<=[a-z0-9-])(?:Benchmark|Bench|Dataset|Corpus|Arena|Testbed)s?(?:-[\w.]+)?$")
_BENCH_NAME_END = re.compile(r"(?:Benchmark|Dataset|Corpus|Corpora|Bench|Suite|Arena|Challenge|Leaderboard|Testbed)s?")
# "X, a comprehensive resource containing 16k queries": a resource the paper gives is data
_DEF_HEAD_WORDS = rf"{_METHOD_HEADS}|{_BENCH_HEADS}|environments?|evaluation|platform|methodology|resource|resources"
_DEF_ITEMS = r"(?:``|[\"“'‘*_{]+)?(?:[\w-]+[\"”'*}_]*(?:\s*,\s*(?:and\s+)?|\s+and\s+))*$"
_DEF_BEFORE = re.compile(
    # "a ... dataset - X", "a benchmark, X", "a new dataset called X", "our constructed dataset as X"
    rf"\b(?P<head>{_DEF_HEAD_WORDS})\s*(?:,|--|—|–|\s-)?\s*(?:(?:called|named|dubbed|termed|coined|namely|as)\s+)?"
    rf"(?:as\s+)?(?:the\s+)?{_DEF_ITEMS}"
    # "two new benchmarks on Multi-Source Retrieval and Synthesis: X and Y"
    rf"|\b(?P<chead>{_DEF_HEAD_WORDS})(?:\s+(?:on|for|of|in|with)\s+[^.;:()\n]{{1,50}}?)?\s*:\s*{_DEF_ITEMS}",
    re.IGNORECASE)
_DEF_BEFORE_DIRECT = re.compile(rf"\b(?P<head>{_DEF_HEAD_WORDS})\s+$", re.IGNORECASE)
#: a defining head noun anywhere in an appositive's noun phrase (not "dataset-level")
_DEF_HEAD_WORD = re.compile(rf"\b(?:{_DEF_HEAD_WORDS})\b(?!-)", re.IGNORECASE)


#: the words a window that _DEF_BEFORE(_DIRECT) matches can end with: a head noun's last word, a
#: naming word, "as", "the", "and" (its items end in "," or "and"); or else one of these characters
_DEF_END_WORDS = tuple(sorted({re.search(r"\w+$", h).group(0).lower()
                               for h in _DEF_HEAD_WORDS.replace("environments?", "environment|environments").split("|")}
                              | {"and", "as", "the", "called", "named", "dubbed", "termed", "coined", "namely"}))
_DEF_END_CHARS = frozenset(",:-—–\"“'‘*_{`")


def _def_before(window: str) -> re.Match[str] | None:
    """``_DEF_BEFORE_DIRECT.search(window) or _DEF_BEFORE.search(window)``, skipping both searches when
    the window's end rules a match out.

    Both patterns end at the window's end with a head noun, a naming word, a separator, an opening
    quote or a list item's "," or "and". An alternation of every head noun tried at each position
    costs ~30 us a window; the end is read in ~1 us, and three windows in five end otherwise (a
    plain ASCII word outside :data:`_DEF_END_WORDS`, or another character). Same matches.
    """
    r = window.rstrip()
    if not r:
        return None
    if r[-1] not in _DEF_END_CHARS:
        k = len(r)
        while k and (r[k - 1].isalnum() or r[k - 1] == "_"):
            k -= 1
        run = r[k:]
        if not run or run.isascii() and not run.lower().endswith(_DEF_END_WORDS):
            return None  # (a suffix: a naming word may be glued to the head, "a sampling methodnamed X")
    return _DEF_BEFORE_DIRECT.search(window) or _DEF_BEFORE.search(window)


#: cut words of a noun phrase that are also participles before its head ("a carefully built corpus")
_PARTICIPLE_CUTS = frozenset(("designed", "built", "based", "trained"))


def _def_head_label(head: str, after: str) -> str | None:
    """Type of a defining head noun; a tool-like head whose purpose is evaluation is a benchmark."""
    h = head.lower()
    if h.startswith(("environment", "evaluation", "resource")):
        return BENCHMARK
    if h in _TOOL_HEADS and _EVAL_PURPOSE.match(after):
        return BENCHMARK
    return _head_label(h)


def _defining_label(ct: str, cs: int, ce: int) -> str | None:
    """What the sentence that gives the name ``ct[cs:ce]`` says it is, or None when it does not say.

    In order: a head noun right after the name ("the QASA benchmark"), an appositive after it
    ("MTOB (Machine Translation from One Book), a benchmark for ..."; "X, a scalable, task-agnostic
    approach"), a head noun just before it ("a new benchmark NoFunEval", "a dataset called ToolE",
    "two ... datasets: AlicePerson and AliceVehicle", "a ... dataset - 3D-MoIT"). A tool-like head
    ("framework", "protocol", "platform") whose purpose is evaluation ("a framework for evaluating
    LMs", "an evaluation protocol") names a benchmark; "a collection of X" is typed by X.
    """
    m = _DEF_HEAD_AFTER.match(ct, ce, min(len(ct), ce + 40))
    if m is not None and (_head_label(m.group("head")) or m.group("head").lower() in ("environment", "environments")):
        return _def_head_label(m.group("head"), ct[m.end():m.end() + 80])
    m = _DEF_APPOS.match(ct, ce, min(len(ct), ce + 260))
    if m is not None:
        np = m.group("np")
        q = _QUANTIFIER_OF.match(np)
        if q is not None:
            np = np[q.end():]
        for part in np.split(","):
            cut = _NP_END_BUT_AND.search(part)
            if cut is not None and cut.group(0).strip().lower() in _PARTICIPLE_CUTS and not _HEAD_RE.search(part, 0, cut.start()):
                cut = _NP_END_BUT_AND.search(part, cut.end() - 1)  # "a rigorously designed benchmark with ..."
            phrase = part[:cut.start()] if cut else part
            heads = list(_DEF_HEAD_WORD.finditer(phrase))
            if heads:
                h = heads[-1]
                if _EVAL_MODIFIER.search(phrase, 0, h.start()):
                    return BENCHMARK
                return _def_head_label(h.group(0), phrase[h.end():] + part[len(phrase):] + ct[m.end():m.end() + 60])
            if cut:
                break
    lo = max(0, cs - 90)
    window = ct[lo:cs]
    brk = max(window.rfind(". "), window.rfind("\n"))
    if brk >= 0:
        window = window[brk + 1:]
    m = _def_before(window)
    if m is not None:
        g = "head" if m.group("head") else "chead"
        head = m.group(g)
        if _EVAL_MODIFIER.search(window, 0, m.start(g)):
            return BENCHMARK
        return _def_head_label(head, ct[ce:ce + 80])
    return None


def _word_in(text: str, word: str) -> bool:
    """Does ``word`` occur in ``text`` as a whole word (case-insensitive for lower-case text)?"""
    hay = text.lower() if word.islower() else text
    for _ in _occurrences(hay, word):
        return True
    return False


def _group_key(group: dict[str, str], key: str) -> str:
    return group.get(key, key)


def _canon(gaz: Gazetteer, name: str) -> str | None:
    entry = gaz.lookup(name)
    return entry.name if entry else None


def _display_names(group: dict[str, str], defs: list[Definition], text: str,
                   accepted: list[_Cand]) -> dict[str, str]:
    """Display name per group key: the long form of an abbreviation, else the first surface."""
    out: dict[str, str] = {}
    for d in defs:
        out.setdefault(entity_key(d.long), d.long)
    for c in sorted(accepted, key=lambda c: c.start):
        if c.rule == "repeat":
            continue
        raw = text[c.start:c.end]
        surface = _strip_markup(raw).strip()
        if "\\" in raw and _GREEK_COMMAND.search(raw):  # "$\\omega$GNN" reads "ωGNN", not "omegaGNN"
            readable = _strip_markup(_GREEK_COMMAND.sub(lambda m: _GREEK_CHARS[m.group(1)], raw)).strip()
            out.setdefault(_group_key(group, entity_key(surface)), readable)
        out.setdefault(_group_key(group, entity_key(surface)), surface)
    return out


def _orig_gap(view: CleanView, clean_pos: int, orig_pos: int) -> int:
    return orig_pos - view.to_orig(clean_pos)


_MARKUP_ANY = re.compile(r"[\\{}*$<&\[]")  # the characters clean_view acts on


def _strip_markup(s: str) -> str:
    return s if _MARKUP_ANY.search(s) is None else clean_view(s).text  # one C scan for the usual plain name


_MODIFIER_GAP = re.compile(r"^[\s\w,()-]{0,80}$")
# "we propose to estimate the change of X (ABC)", "methods for solving X (ABC)": X is not the proposal
# "an approach that harnesses X (ABC)": a relative clause makes X the object of another verb;
# "X (ABC), a new Y (DEF) mechanism": the first definition is the proposal, the second its kind
_GAP_PREPOSITION = re.compile(r"\b(?:of|for|in|on|with|by|from|via|under|into|that|which|who|using|uses|use)\s|\)\s*,",
                              re.IGNORECASE)


def _gap_head(gap: str) -> str | None:
    """Group ("b", "m", "n") of the last head noun in the words between a verb and a name."""
    heads = list(_HEAD_RE.finditer(gap))
    return heads[-1].lastgroup if heads else None


def _component_of_own(text: str, pos: int, own_keys: set[str]) -> bool:
    """Does a long form at ``pos`` open an item of a list of the paper's own system's parts?

    The sentence (at most 250 characters back) holds a component cue ("consists of", "two
    components") whose subject is the authors' ("our", "the proposed", "we propose/design", "this
    paper introduces") or holds one of the names proposed so far, and is not described as others'
    ("existing", "typical", "their"); the long form starts an item right after it (a separator,
    "(2)", "and")."""
    lo = max(0, pos - 250)
    k = max(text.rfind(". ", lo, pos), text.rfind("\n", lo, pos))
    ss = k + 1 if k >= 0 else lo
    if _ITEM_START.search(text, max(ss, pos - 24), pos) is None:
        return False
    cue = _COMPONENT_CUE.search(text, ss, pos)
    if cue is None or _TERMS_AFTER_CUE.match(text, cue.end()):
        return False  # ("an objective consisting of only two terms: negative log-likelihood (NLL) and ...")
    subject = text[ss:cue.start()]
    if _OTHERS_SUBJECT.search(subject):
        return False
    return _OWN_SUBJECT.search(subject) is not None \
        or any(entity_key(w.strip(",.:;()*")) in own_keys for w in subject.split())


# Round 17: the paper's own system as the subject of a verb that adds a part ("SEAS introduces a
# Foreground Modulation Network (FMN)"; not a verb of use: "FedDB utilizes the Average Prediction
# Probability (APP) to ..." names a quantity the method uses, as "X employs HSIC" names others' tool)
_OWN_PART_VERB = re.compile(
    r"(?P<subj>[\w-]+)(?:['’]s)?\s+(?:(?:also|further|then|additionally|first|next|finally|\w+ly)\s+)?"
    r"(?:introduces|designs|develops|proposes|presents|incorporates|includes|contains|features|integrates|"
    r"devises|builds|constructs|adds)\s+"
    r"(?P<gap>[\w\s,-]{0,60})$")
_OWN_HEAD_SUBJECT = re.compile(rf"\b(?:[Oo]ur|[Tt]he\s+proposed)\s+(?:[\w-]+\s+){{0,2}}?(?:{_METHOD_HEADS})\s+$")


def _part_of_own(text: str, pos: int, own_keys: set[str]) -> bool:
    """Does a long form at ``pos`` name a part the paper's own system adds?

    In its sentence (at most 200 characters back) the long form is the object of a verb such as
    "introduces", "designs" or "incorporates" (a few modifiers between) whose subject is one of the
    names proposed so far ("SEAS introduces a Foreground Modulation Network (FMN)") or "our / the
    proposed <head>" ("our model incorporates a Gated Memory Unit (GMU)")."""
    lo = max(0, pos - 200)
    k = max(text.rfind(". ", lo, pos), text.rfind("\n", lo, pos))
    ss = k + 1 if k >= 0 else lo
    m = _OWN_PART_VERB.search(text, ss, pos)
    if m is None or not _only_modifiers(m.group("gap")) or _OTHERS_SUBJECT.search(text, ss, m.start()):
        return False
    if entity_key(m.group("subj")) in own_keys:
        return True
    return _OWN_HEAD_SUBJECT.search(text, ss, m.start("subj")) is not None \
        or _OWN_HEAD_SUBJECT.search(text[ss:m.end("subj")] + " ") is not None


def _only_modifiers(gap: str) -> bool:
    """The text between a proposal verb and a long form: a few words, no sentence break."""
    # coordinated adjectives count once: "a novel and effective prompting method, explicit"
    n_words = sum(1 for w in gap.split() if w not in ("and", "or"))
    return bool(_MODIFIER_GAP.match(gap)) and n_words <= 6 and not _GAP_PREPOSITION.search(gap)


def _list_items(ct: str, start: int, end: int) -> list[tuple[int, int]]:
    out = []
    pos = start
    for m in _LIST_SPLIT.finditer(ct, start, end):
        if m.start() > pos:
            out.append((pos, m.start()))
        pos = m.end()
    if end > pos:
        out.append((pos, end))
    return out


# ---------------------------------------------------------------------------- plain records
def entities_from_doc(doc: Doc, *, spans_key: str = SPANS_KEY, offset: int = 0, field: str = "abstract",
                      mention: Callable[[int, int, str, str], Mention | None] | None = None) -> list[Entity]:
    """The component's spans as :class:`kg.records.Entity` records (one per name and paper).

    ``offset`` is subtracted from the character offsets (for a field that does not start at 0).
    ``mention(start, end, text, rule)``, when given, makes each mention instead (say in its field
    of a joined text, :func:`extractors.pipeline._mention_maker`); a mention it gives None for is
    left out, and so is an entity left without one (its name, role and aliases still come from
    all its spans), as if the entities were mapped afterwards, without making every mention twice.
    """
    by_name: dict[tuple[str, str], dict[str, Any]] = {}
    text = doc_text(doc)
    info = doc.user_data.get(INFO_KEY) or {}
    plain = (doc.user_data.get(PLAIN_SPANS_KEY) or {}).get(spans_key)
    for span in plain if plain is not None else doc.spans.get(spans_key, ()):
        # the span extensions' values, read from the per-document dict once per span
        ss, se, label = span if plain is not None else (span.start_char, span.end_char, span.label_)
        role, canonical, rule, offsets = info.get(f"{ss}:{se}:{label}") or (None, None, None, None)
        s, e = offsets or (ss, se)
        canonical = canonical or text[ss:se]
        k = (label, entity_key(canonical))
        g = by_name.get(k)
        if g is None:
            g = by_name[k] = {"name": canonical, "role": role, "mentions": [], "aliases": set()}
        surface = text[s:e]
        if mention is None:
            g["mentions"].append(make_mention(s - offset, e - offset, surface, rule or "", field))
        else:
            m = mention(s, e, surface, rule or "")
            if m is not None:
                g["mentions"].append(m)
        if role == PROPOSED:
            g["role"] = PROPOSED
        g["aliases"].add(_alias(surface))
    out = []
    for (label, _k), g in by_name.items():
        if not g["mentions"]:
            continue  # (only with ``mention``: every mention crossed the title/abstract break)
        etype = EntityType.METHOD if label == METHOD else EntityType.BENCHMARK
        aliases = tuple(sorted(a for a in g["aliases"] if entity_key(a) != entity_key(g["name"])))
        out.append(make_entity(etype, g["name"], Role(g["role"]), aliases, tuple(g["mentions"])))
    return out


@lru_cache(maxsize=1 << 14)
def _alias(surface: str) -> str:
    """A mention's text as an alias: markup removed, trimmed (the same surfaces recur in every
    abstract; a clean view per mention cost more than the rest of :func:`entities_from_doc`)."""
    return clean_view(surface).text.strip()


@Language.factory("paperkg_entities",
                  default_config={"spans_key": SPANS_KEY, "labels": [METHOD, BENCHMARK], "gazetteer": None},
                  assigns=["doc.spans"])
def make_entities(nlp: Language, name: str, spans_key: str, labels: list[str],
                  gazetteer: str | None) -> EntityRecognizer:
    return EntityRecognizer(nlp, name, spans_key=spans_key, labels=labels, gazetteer=gazetteer)


@Language.factory("paperkg_methods",
                  default_config={"spans_key": "paperkg_methods", "gazetteer": None}, assigns=["doc.spans"])
def make_methods(nlp: Language, name: str, spans_key: str, gazetteer: str | None) -> EntityRecognizer:
    return EntityRecognizer(nlp, name, spans_key=spans_key, labels=[METHOD], gazetteer=gazetteer)


@Language.factory("paperkg_benchmarks",
                  default_config={"spans_key": "paperkg_benchmarks", "gazetteer": None}, assigns=["doc.spans"])
def make_benchmarks(nlp: Language, name: str, spans_key: str, gazetteer: str | None) -> EntityRecognizer:
    return EntityRecognizer(nlp, name, spans_key=spans_key, labels=[BENCHMARK], gazetteer=gazetteer)
