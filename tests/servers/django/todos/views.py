import json

from django.contrib import auth
from django.http import JsonResponse
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_GET, require_POST
from rest_framework import pagination, serializers, viewsets

from todos.models import Todo


class TodoSerializer(serializers.ModelSerializer):
    class Meta:
        model = Todo
        fields = ["id", "user_id", "title", "completed", "created_at"]
        read_only_fields = ["created_at"]


class TodoViewSet(viewsets.ModelViewSet):
    queryset = Todo.objects.all()
    serializer_class = TodoSerializer
    filterset_fields = ["user_id", "completed"]


class LimitOffsetTodoViewSet(TodoViewSet):
    pagination_class = pagination.LimitOffsetPagination


class SmallCursorPagination(pagination.CursorPagination):
    ordering = "id"
    page_size = 3


class CursorTodoViewSet(TodoViewSet):
    pagination_class = SmallCursorPagination


@require_GET
@ensure_csrf_cookie
def csrf(request):
    return JsonResponse({"detail": "CSRF cookie set."})


@require_POST
def login(request):
    # Django's CsrfViewMiddleware checks this POST like any other unsafe request.
    try:
        fields = json.loads(request.body or b"{}")
    except ValueError:
        return JsonResponse({"detail": "expected a JSON body"}, status=400)
    user = auth.authenticate(
        request, username=fields.get("username"), password=fields.get("password")
    )
    if user is None:
        return JsonResponse({"detail": "Invalid username or password."}, status=400)
    auth.login(request, user)  # rotates the CSRF token: a new csrftoken cookie
    return JsonResponse({"username": user.username})
