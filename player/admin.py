"""The answers given in play, for the editors to read: nothing here is written by hand."""

from django.contrib import admin

from .models import Answer


@admin.register(Answer)
class AnswerAdmin(admin.ModelAdmin):
    """Every answer given in the web player, read-only; whoever may read questions may read
    what players answered to them (the editors' groups have no permission on this app)."""

    list_display = ["question", "mode", "right", "overridden", "given", "seconds",
                    "answered_at"]
    list_filter = ["mode", "right", "overridden"]
    list_select_related = ["question"]
    search_fields = ["question__text", "question__ref", "given"]
    date_hierarchy = "answered_at"
    # Who played (the browser's token, the players' names on the game) is none of their
    # business: what was answered, how and how fast is.
    fields = ["question", "seat", "mode", "right", "overridden", "given", "seconds",
              "answered_at"]
    readonly_fields = fields
    list_per_page = 100

    def has_view_permission(self, request, obj=None):
        return (super().has_view_permission(request, obj)
                or request.user.has_perm("cms.view_question"))

    def has_module_permission(self, request):
        return super().has_module_permission(request) or self.has_view_permission(request)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
