# DefaultRouter's trailing-slash routes (/api/todos/, /api/todos/<pk>/), and the session login
# a browser app would use: /api/csrf/ sets the csrftoken cookie, /api/login/ logs in.
from django.urls import include, path
from rest_framework.routers import DefaultRouter

from todos import views

router = DefaultRouter()
router.register("todos", views.TodoViewSet)
router.register("limited-todos", views.LimitOffsetTodoViewSet, basename="limited-todo")
router.register("cursor-todos", views.CursorTodoViewSet, basename="cursor-todo")

urlpatterns = [
    path("api/csrf/", views.csrf),
    path("api/login/", views.login),
    path("api/", include(router.urls)),
]
