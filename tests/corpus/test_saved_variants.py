"""A release as users save it (tests/corpus/variants.py): each variant of the five shared releases is read
with the very records of the original -- same ids, texts, examples, parents, children and counts -- or
refused in one line naming the file, the line and why. Never a traceback, never a silently wrong record
set.

What the reader must give back is the original's records as the saved encoding can hold them: a file
saved as Windows-1252 has "?" for "−" and "∞" (not in that encoding), a transliterated one has ASCII
quotes; everything else is equal to the character.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

import pytest
import variants  # tests/corpus/variants.py
from test_official import EFFECTIVE, EXPECTED

from rulesjudge.common.errors import InputError
from rulesjudge.corpus.official import SAMPLE, Release, decode_release, parse_release, split_lines
from rulesjudge.corpus.records import Record

RELEASES = sorted(EXPECTED)


@pytest.fixture(scope="module")
def shared(shared_cr_dir):
    """``shared(name)``: the lines of a shared release and the release as parsed from its own file."""
    cache: dict[str, tuple[list[str], Release]] = {}

    def get(name: str) -> tuple[list[str], Release]:
        if name not in cache:
            path = shared_cr_dir / name
            cache[name] = (split_lines(decode_release(path.read_bytes(), name)), parse_release(path))
        return cache[name]

    return get


def same(record: Record, transform: Callable[[str], str]) -> tuple[object, ...]:
    return (record.kind, record.number, transform(record.title), transform(record.text),
            tuple(transform(e) for e in record.examples), tuple(transform(a) for a in record.aliases),
            record.parent, record.children, record.heading_path, record.obsolete)


def assert_same_records(original: Release, variant: Release, transform: Callable[[str], str] = str) -> None:
    assert variant.effective == original.effective and variant.counts == original.counts
    assert [r.id for r in variant.records] == [r.id for r in original.records]
    for want, got in zip(original.records, variant.records, strict=True):
        assert same(got, str) == same(want, transform), want.id


def refused(data: bytes, name: str) -> InputError:
    with pytest.raises(InputError) as caught:
        parse_release(data, source_name=name)
    message = str(caught.value)
    assert message.startswith(f"{name}:") and "\n" not in message
    return caught.value


# ------------------------------------------------------------------ read with the original's records

LOSSLESS: dict[str, Callable[[list[str]], bytes]] = {
    "utf-8 without BOM": variants.utf8,
    "utf-8 with BOM": lambda lines: variants.utf8(lines, bom=True),
    "utf-16 LE with BOM": lambda lines: variants.utf16(lines, "le"),
    "utf-16 BE with BOM": lambda lines: variants.utf16(lines, "be"),
    "utf-32 with BOM": variants.utf32,
    "CR line ends (old Mac)": lambda lines: variants.line_ends(lines, "\r"),
    "LF line ends": lambda lines: variants.line_ends(lines, "\n"),
    "CRLF line ends": lambda lines: variants.line_ends(lines, "\r\n"),
    "a blank line after every line (CR CR LF re-saved as CRLF CRLF)":
        lambda lines: variants.line_ends(lines, "\r\n\r\n"),
    "trailing spaces, tabs and no-break spaces": variants.trailing_whitespace,
    "two blank lines where one was": variants.doubled_blank_lines,
    "copied from the PDF: no-break spaces, soft hyphens, zero-width spaces": variants.pdf_copy,
    "a preface before and after the title": variants.preface,
    "no title line (the copy starts at the date)": variants.without_title,
    "every line indented": variants.indented,
    "gzip-compressed": lambda lines: variants.gzipped(variants.utf8(lines, bom=True)),
}


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("variant", sorted(LOSSLESS))
def test_a_release_saved_another_way_reads_with_the_same_records(shared, name, variant):
    # why: these are how people save or copy the file; none changes a rule, so none may change a record
    lines, original = shared(name)
    release = parse_release(LOSSLESS[variant](lines), source_name=name)
    assert_same_records(original, release)
    assert release.warnings == ()


def _lines(data: bytes) -> list[str]:
    return split_lines(data.decode("utf-8"))


COMBINED: dict[str, Callable[[list[str]], bytes]] = {
    "a PDF copy, double-spaced, saved as UTF-16 and gzip'd": lambda lines: variants.gzipped(variants.utf16(
        _lines(variants.line_ends(_lines(variants.pdf_copy(lines)), "\r\n\r\n")), "le")),
    "a preface, indented, blank lines doubled, LF": lambda lines: variants.line_ends(_lines(
        variants.doubled_blank_lines(_lines(variants.indented(_lines(variants.preface(lines)))))), "\n"),
    "no title line, double-spaced": lambda lines: variants.line_ends(_lines(variants.without_title(lines)),
                                                                     "\r\n\r\n"),
}


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("variant", sorted(COMBINED))
def test_ways_of_saving_combined_still_read_with_the_same_records(shared, name, variant):
    # why: a file passes through several hands; each fix must hold whatever came before it
    lines, original = shared(name)
    release = parse_release(COMBINED[variant](lines), source_name=name)
    assert_same_records(original, release)


@pytest.mark.parametrize("name", RELEASES)
def test_windows_1252_keeps_every_character_the_encoding_has(shared, name):
    # why: "Save as ANSI" on Windows; "−" and "∞" (2024 on) are not in cp1252 and become "?", nothing else
    lines, _ = shared(name)
    with_aether = variants.with_aether(lines)  # "Æther", in cp1252 and Latin-1 but in none of the five
    original = parse_release(variants.utf8(with_aether), source_name=name)
    release = parse_release(variants.legacy(with_aether, "cp1252"), source_name=name)
    assert_same_records(original, release, lambda text: variants.as_saved(text, "cp1252"))
    assert any("\u00c6therize" in e for r in release.records for e in r.examples)


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("encoding", ["latin-1", "cp1252"])
def test_ascii_quotes_keep_the_ids(shared, name, encoding):
    # why: a converter that transliterates ("iconv -t latin1//TRANSLIT") writes "isn't" for "isn’t"; the
    # glossary entry "Attacks and Isn't Blocked" must keep its id, or it is another entry in the map
    lines, _ = shared(name)
    with_aether = variants.with_aether(lines)
    original = parse_release(variants.utf8(with_aether), source_name=name)
    release = parse_release(variants.transliterated(with_aether, encoding), source_name=name)
    assert_same_records(original, release,
                        lambda text: variants.as_saved(variants.ascii_typography(text), encoding))
    edition = EFFECTIVE[name]
    entry = next(r for r in release.records if r.id == f"cr@{edition}/glossary/attacks-and-isnt-blocked")
    assert entry.title == "Attacks and Isn't Blocked"


# ------------------------------------------------------------------ refused, naming the line and why


@pytest.mark.parametrize("name", RELEASES)
def test_latin_1_that_lost_the_quotes_is_refused_at_the_first_loss(shared, name):
    # why: Latin-1 has no typographic quotes; an editor writes "player?s", and every such rule would be
    # read with a "?" in it
    lines, _ = shared(name)
    first = next(i for i, line in enumerate(lines) if re.search(r"[A-Za-z][^\x00-\xff][A-Za-z]", line))
    error = refused(variants.legacy(lines, "latin-1"), name)
    assert error.line == first + 1 and "characters lost in a conversion" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_few_lost_characters_in_a_file_with_its_apostrophes_are_a_warning(shared, name):
    # why: a stray glitch must not refuse a release; it is said, with its line
    lines, original = shared(name)
    data, first = variants.a_few_lost(lines)
    release = parse_release(data, source_name=name)
    assert release.counts == original.counts and [r.id for r in release.records] == [r.id for r in
                                                                                     original.records]
    assert release.warnings == (f"{name}:{first}: 5 character(s) lost in a conversion ('?' inside a word, or "
                                "U+FFFD): the text keeps them as they are",)


@pytest.mark.parametrize("name", RELEASES)
@pytest.mark.parametrize("bom", [True, False], ids=["bom", "no-bom"])
def test_a_damaged_byte_in_utf8_is_named_by_its_line(shared, name, bom):
    # why: without a BOM the file decodes as cp1252 and looked garbled ("â€™"), which blamed the wrong thing
    lines, _ = shared(name)
    data, line = variants.damaged_byte(lines, bom)
    error = refused(data, name)
    assert error.line == line and "not valid UTF-8 at byte" in str(error) and "damaged" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_utf8_read_as_windows_1252_and_saved_again_is_refused(shared, name):
    # why: "â€™" for "’" in every rule; not a release's text
    lines, _ = shared(name)
    first = next(i for i, line in enumerate(lines) if not line.isascii())
    error = refused(variants.mojibake(lines), name)
    assert error.line == first + 1 and "garbled characters" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_release_without_its_glossary_is_refused_at_the_credits(shared, name):
    lines, _ = shared(name)
    data, credits = variants.without_glossary(lines)
    error = refused(data, name)
    assert error.line == credits and "no Glossary: the Credits follow the rules (after 905." in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_release_without_its_credits_is_refused_as_cut_in_the_glossary(shared, name):
    # why: a file cut after any glossary entry looks the same; the entries after the cut would be missing
    lines, _ = shared(name)
    data, last = variants.without_credits(lines)
    error = refused(data, name)
    assert error.line == last and "truncated inside the Glossary (in or after the entry 'Zone-Change" in str(
        error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_copy_without_blank_lines_is_refused_at_the_first_glossary_entry(shared, name):
    # why: the blank lines are all that separate the glossary entries; without them they run together
    lines, _ = shared(name)
    data, first_term = variants.without_blank_lines(lines)
    error = refused(data, name)
    assert error.line == first_term and "the blank lines between the entries are missing" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_judges_excerpt_is_refused_as_an_excerpt(shared, name):
    # why: read as an edition, chapters 1-7 and 9 would be "removed" in it, in every rule's history
    lines, _ = shared(name)
    data, chapter = variants.excerpt(lines, 800, 810)
    error = refused(data, name)
    assert error.line == chapter and "the rules begin with chapter 8 (8. Multiplayer Rules)" in str(error)
    assert "excerpt" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_section_cut_out_is_refused_at_its_contents_entry(shared, name):
    lines, _ = shared(name)
    data, listed = variants.without_section(lines, "723")
    error = refused(data, name)
    assert error.line == listed and "the contents list section 723, which the rules lack" in str(error)


@pytest.mark.parametrize("name", RELEASES)
def test_a_typo_in_the_contents_is_a_warning_not_a_cut(shared, name):
    # why: the title is in the rules under its real number: nothing was cut, the publisher mistyped
    lines, original = shared(name)
    data, listed = variants.contents_typo(lines, "723", "799")
    release = parse_release(data, source_name=name)
    assert_same_records(original, release)
    title = next(r.title for r in original.records if r.id.endswith("/723"))
    assert release.warnings == (f"{name}:{listed}: the contents list {title!r} as section 799; the rules "
                                "print it under another number",)


def test_two_releases_in_one_file_are_refused_at_the_second(shared):
    # why: everything after the first one's Credits is ignored; the second release would vanish unsaid
    data, second = variants.concatenated(shared("cr-2024-06-07.txt")[0], shared("cr-2025-07-25.txt")[0])
    error = refused(data, "both.txt")
    assert error.line == second and "a second release begins after the Credits" in str(error)


def test_gzip_and_other_containers_without_the_shared_releases():
    # why: runs everywhere (the built-in sample release), unlike the tests on ../shared/cr
    original = parse_release(SAMPLE, source_name="cr.txt")
    release = parse_release(variants.gzipped(SAMPLE), source_name="cr.txt.gz")
    assert_same_records(original, release)
    assert release.read_as[0] == "gzip-compressed"
    cut = variants.gzipped(SAMPLE)[:-20]
    assert "gzip-compressed, and cut short" in str(refused(cut, "cr.txt.gz"))
    assert "damaged" in str(refused(variants.gzipped(SAMPLE)[:10] + b"\xff" * 40, "cr.txt.gz"))
    assert "compressed twice" in str(refused(gzip.compress(variants.gzipped(SAMPLE)), "cr.txt.gz"))
    assert "a PDF document" in str(refused(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "cr.pdf"))
    assert "Word .docx" in str(refused(b"PK\x03\x04\x14\x00\x06\x00" + b"\x00" * 30, "cr.docx"))
    assert "web page" in str(refused(b"<!DOCTYPE html><html><title>Comprehensive Rules</title>", "cr.html"))


def test_the_counts_of_the_five_releases_stay_pinned(shared):
    for name in RELEASES:
        assert shared(name)[1].counts == EXPECTED[name]


# ------------------------------------------------------------------ `corpus add`, then `rule`


def test_corpus_add_of_a_variant_says_what_it_read_in_one_line_and_rule_answers(data_dir, tmp_path, shared,
                                                                                 cli):
    lines, _ = shared("cr-2024-06-07.txt")
    path = tmp_path / "CR-2024.TXT"  # as Windows names it, saved as "Unicode big endian"
    path.write_bytes(variants.utf16(lines, "be"))
    code, out, err = cli("corpus", "add", str(path))
    assert code == 0 and err == ""
    assert out.count("\n") == 1 and out.startswith("Added: Comprehensive Rules effective 2024-06-07 -> ")
    assert out.rstrip().endswith("read as UTF-16 BE with BOM, CRLF line ends)")
    code, out, _ = cli("rule", "725.4")
    assert code == 0 and out.startswith("CR 725.4 (2026-04-17) \u2014 The Monarch")
    assert "722.4 in 2024-06-07" in out  # why: the added edition joined the Monarch's history
    code, out, _ = cli("rule", "722.4", "--edition", "2024-06-07")
    assert code == 0 and out.startswith("CR 722.4 (2024-06-07) \u2014 The Monarch")


def test_corpus_add_of_a_pdf_copy_names_what_it_cleaned(data_dir, tmp_path, shared, cli):
    lines, _ = shared("cr-2022-10-07.txt")
    path = tmp_path / "cr-2022"  # no extension
    path.write_bytes(variants.pdf_copy(lines))
    code, out, _ = cli("corpus", "add", str(path))
    assert code == 0 and out.startswith("Added: Comprehensive Rules effective 2022-10-07")
    assert "no-break or narrow spaces read as spaces" in out and "zero-width characters dropped" in out
    code, out, _ = cli("rule", "721.4", "--edition", "2022-10-07")
    assert code == 0 and "If the monarch leaves the game" in out and "\u00a0" not in out


def test_corpus_add_keeps_a_gzip_compressed_release_as_its_text(data_dir, tmp_path, shared_cr_dir, cli):
    original = (shared_cr_dir / "cr-2025-07-25.txt").read_bytes()
    path = tmp_path / "cr-2025-07-25.txt.gz"
    path.write_bytes(variants.gzipped(original))
    code, out, _ = cli("corpus", "add", str(path))
    assert code == 0 and "read as gzip-compressed, UTF-8 with BOM, CR line ends (and 12 CRLF))" in out
    assert (data_dir / "releases" / "cr-2025-07-25.txt").read_bytes() == original
    code, out, _ = cli("rule", "725.4")
    assert code == 0 and "724.4 in 2025-07-25" in out


def test_a_folder_stands_for_its_txt_files_in_any_case(data_dir, tmp_path, shared, cli):
    lines, _ = shared("cr-2020-06-01.txt")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "CR-2020.TXT").write_bytes(variants.line_ends(lines, "\r"))
    (folder / "notes.md").write_text("not a release\n", encoding="utf-8")
    code, out, err = cli("corpus", "add", str(folder))
    assert code == 0 and err == "" and out.startswith("Added: Comprehensive Rules effective 2020-06-01")


def test_corpus_add_of_an_excerpt_is_one_line_and_writes_nothing(data_dir, tmp_path, shared, cli):
    lines, _ = shared("cr-2024-06-07.txt")
    data, chapter = variants.excerpt(lines, 800, 810)
    path = tmp_path / "multiplayer.txt"
    path.write_bytes(data)
    code, out, err = cli("corpus", "add", str(path))
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.strip() == (f"rulesjudge: multiplayer.txt:{chapter}: the rules begin with chapter 8 "
                           "(8. Multiplayer Rules), not chapter 1: an excerpt, not a whole release (as an "
                           "edition of the rules, an excerpt would say that every rule it leaves out was "
                           "removed)")
    assert not (data_dir / "releases").exists()


def test_the_built_in_release_saved_another_way_is_said_so(data_dir, tmp_path, shared, cli):
    # why: "Not added ... this file differs" would send a judge looking for a difference that isn't there
    lines, _ = shared("cr-2026-04-17.txt")
    path = tmp_path / "cr.txt"
    path.write_bytes(variants.utf16(lines, "le"))
    code, out, _ = cli("corpus", "add", str(path))
    assert code == 0 and out.count("\n") == 1
    assert out.startswith("Already built in: Comprehensive Rules effective 2026-04-17 (")
    assert out.rstrip().endswith("this file holds the same rules, saved another way (read as UTF-16 LE with "
                                 "BOM, CRLF line ends); nothing to add")
    assert not (data_dir / "releases").exists()


def test_a_release_dropped_into_the_data_folder_as_txt_in_capitals_loads(data_dir, shared, cli):
    lines, _ = shared("cr-2024-06-07.txt")
    (data_dir / "releases").mkdir(parents=True)
    (data_dir / "releases" / "CR-2024.TXT").write_bytes(variants.line_ends(lines, "\r"))
    code, out, _ = cli("rule", "722.4", "--edition", "2024-06-07")
    assert code == 0 and out.startswith("CR 722.4 (2024-06-07) \u2014 The Monarch")
    assert "Read from: CR-2024.TXT line 5859" in out
