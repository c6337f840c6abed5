from django.db import models


class Todo(models.Model):
    user_id = models.IntegerField()
    title = models.CharField(max_length=100)
    completed = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "todos"
        ordering = ["id"]
