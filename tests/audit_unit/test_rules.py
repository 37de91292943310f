import pytest

from audit.rules import axe_run_options, is_wcag_rule, level_of, success_criteria, tags_for


@pytest.mark.parametrize(
    ("version", "level", "tags"),
    [
        ("2.0", "A", ["wcag2a"]),
        ("2.0", "AA", ["wcag2a", "wcag2aa"]),
        ("2.0", "AAA", ["wcag2a", "wcag2aa", "wcag2aaa"]),
        ("2.1", "A", ["wcag2a", "wcag21a"]),
        ("2.1", "AA", ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]),
        ("2.1", "AAA", ["wcag2a", "wcag2aa", "wcag2aaa", "wcag21a", "wcag21aa"]),
        ("2.2", "A", ["wcag2a", "wcag21a"]),
        ("2.2", "AA", ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]),
        ("2.2", "AAA", ["wcag2a", "wcag2aa", "wcag2aaa", "wcag21a", "wcag21aa", "wcag22aa"]),
    ],
)
def test_tags_for(version, level, tags):
    assert tags_for(version, level) == tags
    assert not {"wcag22a", "wcag21aaa", "wcag22aaa", "best-practice"} & set(tags)


def test_best_practice_tag_only_on_request():
    assert tags_for("2.2", "AA", best_practices=True)[-1] == "best-practice"
    assert "best-practice" not in tags_for("2.2", "AA")


@pytest.mark.parametrize(("version", "level"), [("2.3", "AA"), ("2.2", "aa"), ("2.2", "B")])
def test_tags_for_rejects_unknown(version, level):
    with pytest.raises(ValueError):
        tags_for(version, level)


@pytest.mark.parametrize(
    ("tags", "level"),
    [
        (["cat.text-alternatives", "wcag2a", "wcag111"], "A"),
        (["wcag21a", "wcag253"], "A"),
        (["wcag2aa", "wcag143"], "AA"),
        (["wcag21aa", "wcag1412"], "AA"),
        (["wcag22aa", "wcag258"], "AA"),
        (["wcag2aaa", "wcag146"], "AAA"),
        (["wcag2aa", "wcag2a"], "A"),
        (["best-practice", "cat.keyboard"], None),
        (["wcag2a-obsolete", "wcag411", "deprecated"], None),
        (["wcag211"], None),
        ([], None),
    ],
)
def test_level_of(tags, level):
    assert level_of(tags) == level
    assert is_wcag_rule(tags) is (level is not None)


def test_success_criteria():
    assert success_criteria(["wcag2aa", "wcag143", "cat.color"]) == ["1.4.3"]
    assert success_criteria(["wcag21aa", "wcag1412"]) == ["1.4.12"]
    assert success_criteria(["wcag2a", "wcag111", "wcag244", "wcag412", "wcag111"]) == [
        "1.1.1",
        "2.4.4",
        "4.1.2",
    ]
    assert success_criteria(["wcag22aa", "wcag258"]) == ["2.5.8"]
    for tag in (
        "wcag2a",
        "wcag2aa",
        "wcag2aaa",
        "wcag21a",
        "wcag21aa",
        "wcag22aa",
        "wcag2a-obsolete",
        "best-practice",
        "EN-9.1.4.3",
        "TTv5",
    ):
        assert success_criteria([tag]) == []


def test_axe_run_options():
    opts = axe_run_options("2.1", "AA")
    assert opts == {
        "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]},
        "resultTypes": ["violations", "incomplete"],
    }
    assert axe_run_options("2.2", "AA", True)["runOnly"]["values"][-1] == "best-practice"
