"""All configuration, from environment variables, in one place.

With nothing set, Stepwise runs on SQLite under ./data and on its deterministic path (no
model key). Each integration switches on when its settings are present.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

_PLACEHOLDER_SECRETS = {"changeme", "change-me", "secret", "xxx", "your-key-here", "todo"}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="STEPWISE_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    env: Literal["dev", "test", "prod"] = Field(default="dev", description="Deployment environment")
    release: str = Field(default="stepwise@0.1.0", description="Release name reported to Sentry")

    # --- storage ---------------------------------------------------------------------
    database_url: str = Field(
        default="sqlite:///./data/stepwise.db",
        description="SQLite database URL (the embedded default)",
    )
    mongodb_uri: str | None = Field(
        default=None,
        validation_alias=AliasChoices("MONGODB_URI", "STEPWISE_MONGODB_URI"),
        description="When set, MongoDB is used instead of SQLite",
    )
    mongodb_db: str = Field(default="stepwise", description="MongoDB database name")

    # --- providers (each optional) ---------------------------------------------------
    gemini_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("GEMINI_API_KEY", "STEPWISE_GEMINI_API_KEY")
    )
    gemini_model: str = Field(default="gemini-2.5-flash")
    gemini_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("GEMINI_BASE_URL", "STEPWISE_GEMINI_BASE_URL"),
        description="Override the Gemini API endpoint (tests point it at a local fake)",
    )
    tavily_api_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("TAVILY_API_KEY", "STEPWISE_TAVILY_API_KEY")
    )
    tavily_base_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("TAVILY_BASE_URL", "STEPWISE_TAVILY_BASE_URL"),
        description="Override the Tavily API endpoint (tests point it at a local fake)",
    )
    langfuse_public_key: str | None = Field(
        default=None, validation_alias=AliasChoices("LANGFUSE_PUBLIC_KEY")
    )
    langfuse_secret_key: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("LANGFUSE_SECRET_KEY")
    )
    langfuse_host: str | None = Field(
        default=None, validation_alias=AliasChoices("LANGFUSE_HOST", "LANGFUSE_BASE_URL")
    )
    sentry_dsn: SecretStr | None = Field(default=None, validation_alias=AliasChoices("SENTRY_DSN"))

    # --- secrets a task handles (passwords, PINs): sealed at rest with this key ------------
    secret_key: SecretStr | None = Field(
        default=None,
        description="Fernet key sealing the secret values of tasks (rotate with `new,old`); unset: generated beside "
        "the SQLite database (<database>.secret-key, mode 0600); required with MONGODB_URI",
    )

    # --- limits ----------------------------------------------------------------------
    rate_limit_per_minute: int = Field(
        default=60,
        ge=1,
        description="Interact requests per user per minute (an agent stepping every second and a person trying it by hand both stay under 60)",
    )
    api_rate_limit_per_minute: int = Field(
        default=600, ge=1, description="Requests per user per minute on the other authenticated routes (task detail, sessions, usage)"
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins allowed to call the API from a browser, comma-separated: chrome-extension://<extension id>",
    )
    extension_ids: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Chrome extension ids allowed to call the API (comma-separated); each adds chrome-extension://<id> to the CORS origins",
    )
    max_body_bytes: int = Field(default=4_000_000, ge=1024, description="Largest request body accepted")
    max_dom_chars: int = Field(default=2_000_000, ge=1000, description="Largest `dom` string accepted")
    max_tree_nodes: int = Field(default=3_000, ge=1, description="Most `interactiveTree` nodes accepted")
    max_query_chars: int = Field(default=2_000, ge=1, description="Longest `query` accepted")
    max_steps: int = Field(default=50, ge=1, description="Steps per task before MAX_STEPS_EXCEEDED")
    task_idle_minutes: int = Field(default=30, ge=1, description="Active tasks idle longer become interrupted")
    chaining: bool = Field(
        default=True, description="Answer a run of safe actions (a form's fields, then its submit) as one chain; false: one action per answer"
    )
    chain_max_actions: int = Field(default=10, ge=2, le=25, description="Most actions in one chain")
    subtasks: bool = Field(
        default=True, description="Hierarchical plans: a multi-part goal's sub-tasks, each verified on the page, with a fresh worker context; false: flat plans"
    )
    memory_skills: bool = Field(
        default=True, description="Skills library: learn from verified corrections, use admitted skills (per tenant: PUT /api/memory/settings)"
    )
    memory_replay: bool = Field(
        default=True, description="Replay flows whose goal was proven, re-identifying and verifying every step (per tenant: PUT /api/memory/settings)"
    )
    vision: bool = Field(
        default=True,
        description="Hybrid vision: screenshots go to the model with the element list for visual goals, for tenants "
        "that allowed them (PUT /api/vision/settings; off for every tenant until it does). false: never, for anyone",
    )
    max_screenshot_bytes: int = Field(default=2_000_000, ge=10_000, description="Largest decoded `screenshot` accepted (413 past it)")
    vision_max_width: int = Field(default=1024, ge=256, le=4096, description="Screenshots wider than this are scaled down before a model sees them")
    screenshot_asks: int = Field(default=2, ge=0, le=10, description="Answers per task that may ask the client for a screenshot")
    full_dom_asks: int = Field(default=2, ge=0, le=10, description="Answers per task that may ask the client for the full DOM")
    idempotency_ttl_hours: int = Field(
        default=24, ge=1, le=24 * 30, description="How long the answer to an Idempotency-Key is kept for a re-send"
    )
    idempotency_lease_seconds: int = Field(
        default=120, ge=5, le=3600, description="A request holding an Idempotency-Key longer than this died; a retry takes it over"
    )
    header_timeout_s: float = Field(
        default=10.0, gt=0, le=300, description="A connection must send a whole request head within this (slowloris guard)"
    )
    keep_alive_s: float = Field(default=5.0, gt=0, le=300, description="Idle keep-alive connections are closed after this")
    max_connections: int | None = Field(
        default=None, ge=1, description="Connections one worker serves at once (503 past it); default from the fd limit"
    )

    # --- knowledge base ------------------------------------------------------------------
    knowledge_max_upload_bytes: int = Field(
        default=20_000_000, ge=1024, description="Largest file (or text) accepted by POST /api/knowledge/ingest"
    )
    knowledge_allow_private_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Hosts or IPs the crawler may fetch although they are not public (self-hosted docs), comma-separated; "
        "everything else that resolves to a loopback, private, link-local or otherwise non-public address is refused",
    )
    knowledge_crawl_enabled: bool = Field(
        default=True,
        description="Whether API clients may start crawls (POST /api/knowledge/index-link): off, the service never fetches "
        "a URL a client chose (uploads and the operator's `stepwise crawl` still work)",
    )
    knowledge_crawl_min_delay_s: float = Field(
        default=1.0, ge=0, le=60, description="Least time between two requests to one host (robots Crawl-delay may ask for more)"
    )
    knowledge_crawl_max_pages: int = Field(default=500, ge=1, le=100_000, description="Most pages one crawl may ask for")
    knowledge_crawl_concurrency: int = Field(default=2, ge=1, le=16, description="Crawl jobs one worker runs at once")
    knowledge_embeddings: bool = Field(
        default=True, description="With GEMINI_API_KEY: chunks and queries are embedded and retrieval fuses dense with BM25"
    )
    knowledge_embedding_model: str = Field(default="gemini-embedding-001")
    knowledge_embedding_dimension: int = Field(default=768, ge=8, le=3072)
    knowledge_learn_tenants: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Tenants whose verified interactions feed phase-2 ingestion (the DOM an action revealed on a page "
        "the tenant indexed), comma-separated; `*` for every tenant",
    )

    # --- logging ---------------------------------------------------------------------
    log_level: str = Field(default="INFO")
    log_format: Literal["console", "json"] = Field(default="console")

    @property
    def model_enabled(self) -> bool:
        return self.gemini_api_key is not None and bool(self.gemini_api_key.get_secret_value())

    @property
    def langfuse_enabled(self) -> bool:
        return bool(self.langfuse_public_key and self.langfuse_secret_key)

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip().rstrip("/") for origin in value.split(",") if origin.strip()]
        return value

    @field_validator("extension_ids", mode="before")
    @classmethod
    def _extension_ids(cls, value: object) -> object:
        """Comma-separated text or a list; each id is Chrome's 32 letters a-p (a typo is refused at start)."""
        ids = [item.strip() for item in value.split(",") if item.strip()] if isinstance(value, str) else value
        if isinstance(ids, list):
            for item in ids:
                if not isinstance(item, str) or not re.fullmatch(r"[a-p]{32}", item):
                    raise ValueError(f"not a Chrome extension id (32 letters a-p): {item!r}")
        return ids

    @property
    def allowed_origins(self) -> list[str]:
        """The CORS origins: ``cors_origins`` and the configured extensions' own origins."""
        extensions = [f"chrome-extension://{extension_id}" for extension_id in self.extension_ids]
        return list(dict.fromkeys([*self.cors_origins, *extensions]))

    @field_validator("knowledge_allow_private_hosts", "knowledge_learn_tenants", mode="before")
    @classmethod
    def _comma_list(cls, value: object) -> object:
        if isinstance(value, str):
            return [item.strip().lower() for item in value.split(",") if item.strip()]
        return value

    def learns_from_interactions(self, tenant_id: str) -> bool:
        return "*" in self.knowledge_learn_tenants or tenant_id.lower() in self.knowledge_learn_tenants

    @model_validator(mode="after")
    def _reject_placeholder_secrets(self) -> Settings:
        if self.env == "dev":
            return self
        for name in ("gemini_api_key", "tavily_api_key", "langfuse_secret_key", "sentry_dsn", "secret_key"):
            value = getattr(self, name)
            if value is not None and value.get_secret_value().strip().lower() in _PLACEHOLDER_SECRETS:
                raise ValueError(f"{name} is a placeholder value; set a real secret or unset it")
        return self


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
