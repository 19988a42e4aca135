"""What an import keeps between its hooks stays on the resource, run by run.

The resources of cms.resources keep each import's state in a run of their own (`self.run`),
made anew by every import_data: nothing is left on the model instances they write, and a
resource that imports a second file starts from nothing.
"""

from cms.formats import CSVFormat
from cms.models import Card, Question, Status
from cms.resources import CardResource, QuestionResource
from tests.builders import make_card, make_question
from tests.cms.test_import_files import ECHELLE_HEADERS, csv_bytes, echelle_row, row_errors

CARD_HEADERS = ["ref", "genre", "titre", "questions", "statut"]


def dataset_of(headers, rows):
    return CSVFormat().create_dataset(csv_bytes(headers, rows))


def own_attributes(obj) -> set[str]:
    """Return what an object carries beyond its model's fields and Django's own state."""
    django = {f.attname for f in type(obj)._meta.concrete_fields}
    # Django's state and prefetches, and the model's own cache (Content.pending_correction).
    django |= {"_state", "_prefetched_objects_cache", "_pending_correction"}
    return set(vars(obj)) - django


def written(result) -> list:
    return [row.instance for row in result.rows if row.instance is not None]


# --- nothing on the objects -----------------------------------------------------------------


def test_an_import_leaves_nothing_of_its_own_on_the_questions_it_writes(db, reviewer):
    make_question("echelle", ref="q-001", step=1, difficulty=1)
    rows = [echelle_row(1), echelle_row(2, difficulte=2, palier=2)]

    result = QuestionResource(user=reviewer).import_data(
        dataset_of(ECHELLE_HEADERS, rows), retain_instance_in_row_result=True)

    assert not result.has_errors() and not result.has_validation_errors()
    assert [(r.import_type, own_attributes(r.instance)) for r in result.rows] == [
        ("update", set()), ("new", set())]


def test_a_row_that_waits_as_a_correction_says_so_in_its_result_not_on_its_object(
        db, editor):
    question = make_question("echelle", ref="q-001", step=1, difficulty=1,
                             status=Status.PUBLISHED)
    rows = [[*echelle_row(1, texte="Corrigée\u202f?"), "publie"]]

    result = QuestionResource(user=editor).import_data(
        dataset_of([*ECHELLE_HEADERS, "statut"], rows), retain_instance_in_row_result=True)

    assert not result.has_validation_errors(), row_errors(result)
    assert [row.as_correction for row in result.rows] == [True]
    assert own_attributes(written(result)[0]) == set()
    assert Question.objects.get(pk=question.pk).text != "Corrigée\u202f?"
    assert question.corrections.get().data["text"] == "Corrigée\u202f?"


def test_an_import_leaves_nothing_of_its_own_on_the_cards_it_writes(db, reviewer):
    refs = [make_question("coup-de-maitre", difficulty=d).ref for d in range(1, 6)]
    rows = [["maitre-1", "coup-de-maitre", "Les volcans", " ".join(refs), "brouillon"]]

    result = CardResource(user=reviewer).import_data(
        dataset_of(CARD_HEADERS, rows), retain_instance_in_row_result=True)

    assert not result.has_validation_errors(), row_errors(result)
    assert [own_attributes(card) for card in written(result)] == [set()]
    assert [s.question.ref for s in Card.objects.get(ref="maitre-1").ordered_slots()] == refs


# --- nothing from one run to the next -------------------------------------------------------


def test_a_resource_imports_the_same_file_twice_and_finds_it_unchanged(db):
    resource = QuestionResource()
    rows = [echelle_row(1), echelle_row(2, difficulte=2, palier=2)]

    first = resource.import_data(dataset_of(ECHELLE_HEADERS, rows))
    second = resource.import_data(dataset_of(ECHELLE_HEADERS, rows))

    assert (first.totals["new"], first.totals["skip"]) == (2, 0)
    assert (second.totals["new"], second.totals["skip"]) == (0, 2)
    assert row_errors(second) == {}  # no ref « already used » by the first file


def test_a_refused_file_leaves_no_error_to_the_next_import_of_its_resource(db):
    resource = QuestionResource()
    bad = [echelle_row(1), echelle_row(2, difficulte="facile")]

    refused = resource.import_data(dataset_of(ECHELLE_HEADERS, bad))
    accepted = resource.import_data(dataset_of(ECHELLE_HEADERS, [echelle_row(3)]))

    assert list(row_errors(refused)) == [3]
    assert row_errors(accepted) == {} and not accepted.has_errors()
    assert list(Question.objects.values_list("ref", flat=True)) == ["q-003"]
    assert list(row_errors(refused)) == [3]  # the first result is left as it was


def test_the_user_of_one_import_is_not_the_author_of_the_next(db, editor):
    resource = QuestionResource()

    resource.import_data(dataset_of(ECHELLE_HEADERS, [echelle_row(1)]), user=editor)
    resource.import_data(dataset_of(ECHELLE_HEADERS, [echelle_row(2)]))

    authors = dict(Question.objects.values_list("ref", "created_by__username"))
    assert authors == {"q-001": editor.username, "q-002": None}


# --- errors gathered by the run -------------------------------------------------------------


def test_the_errors_found_after_the_rows_are_reported_together_on_the_rows_line(db):
    # Two right propositions, and a difficulty outside the step's band: both are rules of
    # cms.validation, found once every row is in, and both are about line 2.
    rows = [echelle_row(1, difficulte=5, palier=1, bonnes="1 2")]

    result = QuestionResource().import_data(dataset_of(ECHELLE_HEADERS, rows))

    assert len(result.invalid_rows) == 1
    assert result.invalid_rows[0].number == 2
    assert set(row_errors(result)[2]) == {"bonnes", "difficulte"}
    assert not Question.objects.exists()


# --- the preview --------------------------------------------------------------------------


def test_the_preview_shows_a_changed_proposition_before_and_after(db):
    make_question("echelle", ref="q-001", step=1, difficulty=1)
    row = echelle_row(1)  # « Réponse B1 » where the stored question says « Proposition 2 »

    result = QuestionResource().import_data(dataset_of(ECHELLE_HEADERS, [row]), dry_run=True)

    cell = str(result.rows[0].diff[result.diff_headers.index("proposition_2")])
    assert "<del" in cell and "Proposition 2" in cell
    assert "<ins" in cell and "Réponse B1" in cell
    assert Question.objects.get(ref="q-001").propositions.first().text == "Proposition 1"


def test_the_preview_of_a_new_question_shows_its_propositions(db):
    result = QuestionResource().import_data(dataset_of(ECHELLE_HEADERS, [echelle_row(1)]),
                                            dry_run=True)

    assert "Réponse D1" in " ".join(str(cell) for cell in result.rows[0].diff)
    assert not Question.objects.exists()


# --- export -------------------------------------------------------------------------------


def test_an_export_of_any_queryset_reads_the_propositions_in_a_few_queries(
        db, django_assert_max_num_queries):
    for _n in range(10):
        make_question("echelle", step=1, difficulty=1)

    with django_assert_max_num_queries(3):  # count, page, propositions
        dataset = QuestionResource().export(queryset=Question.objects.order_by("pk"))

    assert dataset["proposition_4"] == ["Proposition 4"] * 10
    assert dataset["bonnes"] == ["1"] * 10


def test_an_export_of_any_queryset_reads_the_cards_questions_in_a_few_queries(
        db, django_assert_max_num_queries):
    cards = [make_card("coup-de-maitre") for _n in range(3)]

    with django_assert_max_num_queries(4):  # count, page with twins, slots, questions
        dataset = CardResource().export(queryset=Card.objects.order_by("pk"))

    assert dataset["questions"] == [
        " ".join(s.question.ref for s in card.ordered_slots()) for card in cards]
