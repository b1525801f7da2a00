# Stepwise API image. Build: docker build -t stepwise .
FROM python:3.11-slim AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /srv/stepwise

# Dependencies first (cached while only the code changes).
COPY pyproject.toml README.md ./
RUN mkdir -p app agent verification planning knowledge cost observability storage client \
 && for d in app agent verification planning knowledge cost observability storage client; do touch $d/__init__.py; done \
 && pip install . \
 && pip uninstall -y stepwise

COPY app ./app
COPY agent ./agent
COPY verification ./verification
COPY planning ./planning
COPY knowledge ./knowledge
COPY cost ./cost
COPY observability ./observability
COPY storage ./storage
COPY client ./client
RUN pip install --no-deps . \
 && useradd --system --uid 10001 --home /srv/stepwise stepwise \
 && mkdir -p /srv/stepwise/data && chown stepwise /srv/stepwise/data

USER stepwise
ENV STEPWISE_ENV=prod \
    STEPWISE_LOG_FORMAT=json
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/readyz', timeout=2).status == 200 else 1)"
CMD ["stepwise", "serve", "--host", "0.0.0.0", "--port", "8000"]
