"""Create the three editor groups with exactly the permissions their job needs."""

from django.contrib.auth.management import create_permissions
from django.db import migrations

CONTENT = ("question", "card")
PARTS = ("proposition", "cardquestion")


def _perms(actions, models):
    return [f"{action}_{model}" for action in actions for model in models]


GROUPS = {
    # Writes and sends to review; deleted work can be recovered from history.
    "Rédacteur": _perms(("view", "add", "change", "delete", "submit"), CONTENT)
    + _perms(("view", "add", "change", "delete"), PARTS),
    # Reviews: corrects, publishes or sends back; creates and deletes nothing.
    "Relecteur": _perms(("view", "change", "submit", "publish"), CONTENT)
    + _perms(("view", "add", "change", "delete"), PARTS),
    # Reads only.
    "Lecteur": _perms(("view",), CONTENT + PARTS),
}


def create_groups(apps, schema_editor):
    # Permissions are normally created after all migrations; the groups need them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in GROUPS.items():
        group, _created = Group.objects.get_or_create(name=name)
        perms = Permission.objects.filter(content_type__app_label="cms", codename__in=codenames)
        if perms.count() != len(codenames):
            missing = set(codenames) - set(perms.values_list("codename", flat=True))
            raise RuntimeError(f"missing permissions for {name}: {sorted(missing)}")
        group.permissions.set(perms)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("cms", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_groups, remove_groups)]
