# Context Layer: one image for the web process (gunicorn + uvicorn workers) and the task worker.
# Build:  docker build -t context-layer .
# The embedding model and static files are baked in, so the container needs no network at runtime.

ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# ---- build: dependencies, static files, the embedding model folder ----
FROM ${PYTHON_IMAGE} AS build

ENV UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 \
    UV_LINK_MODE=copy \
    UV_PROJECT_ENVIRONMENT=/opt/venv \
    PIP_DISABLE_PIP_VERSION_CHECK=1

RUN pip install --no-cache-dir uv==0.13.9

# A C compiler for the multilingual embedding engine, built here from the source its package ships
# (memories/search/e5.py); the runtime image only needs the OpenMP library it links.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml uv.lock .python-version ./
# All extras, so every EXTRACTION_MODE (anthropic, openai, ollama) works from the same image.
RUN uv sync --frozen --no-dev --all-extras --no-install-project

COPY . .

# collectstatic, the model folder and the category prototypes' vectors need settings, not a
# database or a real secret; the app is compiled here too, since the runtime writes no bytecode.
ENV PATH=/opt/venv/bin:$PATH \
    CONTEXT_LAYER_HOME=/var/lib/context-layer \
    STATIC_ROOT=/app/staticfiles \
    DJANGO_SETTINGS_MODULE=contextlayer.settings
RUN CONTEXT_LAYER_ENV=production SECRET_KEY=build-time-only OIDC_PRIVATE_KEY=build-time-only \
        PUBLIC_URL=https://build.invalid \
        python manage.py collectstatic --noinput \
    && SECRET_KEY=build-time-only python -c "import django; django.setup(); \
from memories.search.embeddings import prepare; from memories.warm import warm_up; \
from memories.search.second_arm import verify_files; prepare(); verify_files(); warm_up()" \
    && python -m compileall -q accounts activity api contextlayer doctor oauth kernel mcpbridge memories web manage.py \
    && rm -f /var/lib/context-layer/secret_key

# ---- runtime: the virtualenv, the app, the model folder; no compilers, no uv, not root ----
FROM ${PYTHON_IMAGE} AS runtime

# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgomp1 \
    && rm -rf /var/lib/apt/lists/* \
    && groupadd --system --gid 10001 app \
    && useradd --system --uid 10001 --gid app --home-dir /app --shell /usr/sbin/nologin app

COPY --from=build /opt/venv /opt/venv
COPY --from=build --chown=app:app /var/lib/context-layer /var/lib/context-layer
COPY --from=build /app /app

ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    CONTEXT_LAYER_ENV=production \
    CONTEXT_LAYER_HOME=/var/lib/context-layer \
    STATIC_ROOT=/app/staticfiles \
    DJANGO_SETTINGS_MODULE=contextlayer.settings \
    HF_HUB_OFFLINE=1 \
    PORT=8000

WORKDIR /app
USER 10001:10001
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["python", "-m", "contextlayer.healthcheck"]

# The task worker is the same image with: python manage.py db_worker
CMD ["gunicorn", "--config", "gunicorn.conf.py", "contextlayer.asgi:application"]
