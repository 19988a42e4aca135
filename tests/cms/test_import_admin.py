import io, re, html, json, time
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from cms.models import Question, Card
from tests.builders import make_question
import openpyxl

def text(r):
    c = r.content.decode()
    c = c[c.find('id="content"'):]
    t = html.unescape(re.sub(r"<[^>]+>", " ", c))
    t = " ".join(t.split())
    return t[:1500]

def up(c, name, data, fmt, model="question"):
    f = SimpleUploadedFile(name, data)
    return c.post(f"/admin/cms/{model}/import/", {"format": fmt, "resource": "0", "kind": "", "import_file": f})

def conf(c, r, model="question"):
    d = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', r.content.decode()))
    d.pop("csrfmiddlewaretoken", None)
    d.setdefault("kind", "")
    print(d)
    return c.post(f"/admin/cms/{model}/process_import/", d, follow=True)

def test_probe_duel(reviewer_client):
    c = reviewer_client
    a = make_question("duel", ref="qa"); b = make_question("duel", ref="qb")
    csv = "ref;genre;titre;couleur;paire;questions;statut\nda;duel;Les fleuves;bleu;db;qa;brouillon\ndb;duel;Les fleuves;bleu;;qb;brouillon\n"
    r = up(c, "c.csv", csv.encode(), "0", "card"); print(r.status_code, text(r)); print()
    r = conf(c, r, "card"); print(r.status_code, text(r))
    print([(x.ref, x.pair and x.pair.ref) for x in Card.objects.all()])

def test_probe_export(reviewer_client):
    r = reviewer_client.get("/admin/cms/question/export/")
    print(re.findall(r'<(?:input|select)[^>]*>', r.content.decode()))
