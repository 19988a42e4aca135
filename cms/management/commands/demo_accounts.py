import json
import os
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand

# One account per editor group, and one administrator.
ACCOUNTS = {
    "redacteur": "Rédacteur",
    "relecteur": "Relecteur",
    "lecteur": "Lecteur",
    "admin": None,
}


class Command(BaseCommand):
    help = ("Make sure the demo accounts exist; passwords are generated once and kept in "
            "var/demo-accounts.json (mode 600).")

    def handle(self, *args, **options):
        path = settings.VAR_DIR / "demo-accounts.json"
        passwords = json.loads(path.read_text()) if path.exists() else {}
        for username in ACCOUNTS:
            passwords.setdefault(username, secrets.token_urlsafe(12))
        settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            json.dump(passwords, handle, indent=2)
        os.chmod(path, 0o600)

        User = get_user_model()
        self.stdout.write("Comptes de démonstration (mots de passe gardés dans "
                          f"{path}) :")
        for username, group_name in ACCOUNTS.items():
            user, _created = User.objects.get_or_create(username=username)
            user.is_staff = True
            user.is_superuser = group_name is None
            if not user.check_password(passwords[username]):
                user.set_password(passwords[username])
            user.save()
            if group_name:
                user.groups.set([Group.objects.get(name=group_name)])
            role = group_name or "administrateur"
            self.stdout.write(f"  {username:<10} {passwords[username]:<18} ({role})")
