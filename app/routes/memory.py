"""Memory: the tenant's learned skills and replayable recipes (list, read, forget) and its
memory switches. Every route is tenant-scoped: another tenant's record is not found."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status

from agent.errors import NotFound
from app.deps import Context, Deps, StoreDep
from app.error_codes import AUTHENTICATED, JSON_BODY
from app.errors import error_responses
from app.json_body import JsonRoute
from app.schemas.memory import (
    DeletedOut,
    MemorySettingsIn,
    MemorySettingsOut,
    RecipeListOut,
    RecipeOut,
    SkillListOut,
    SkillOut,
)
from storage import MemorySettings, RecipeStatus, SkillStatus

router = APIRouter(prefix="/api", tags=["memory"], route_class=JsonRoute)

SkillId = Annotated[str, Path(max_length=64, description="The skill's id")]
RecipeId = Annotated[str, Path(max_length=64, description="The recipe's id")]
Domain = Annotated[str | None, Query(min_length=1, max_length=253, description="Only this site's records (e.g. `emr.example`)")]
Limit = Annotated[int, Query(ge=1, le=500, description="Records per page")]
Offset = Annotated[int, Query(ge=0, le=1_000_000, description="Records skipped (the previous pages)")]


class SkillNotFound(NotFound):
    code = "SKILL_NOT_FOUND"


class RecipeNotFound(NotFound):
    code = "RECIPE_NOT_FOUND"


# -- skills -------------------------------------------------------------------------------
@router.get("/skills", response_model=SkillListOut, responses=error_responses(*AUTHENTICATED), summary="The tenant's learned skills, most recently used first")
async def list_skills(
    ctx: Context,
    store: StoreDep,
    domain: Domain = None,
    status: Annotated[SkillStatus | None, Query(description="Only skills in this status")] = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> SkillListOut:
    skills = await store.skills.list(ctx.tenant_id, domain, limit, offset, status=status)
    total = await store.skills.total(ctx.tenant_id, domain, status=status)
    return SkillListOut(skills=[SkillOut.of(s) for s in skills], total=total)


@router.get("/skills/{skill_id}", response_model=SkillOut, responses=error_responses(*AUTHENTICATED, "SKILL_NOT_FOUND"), summary="One skill")
async def get_skill(skill_id: SkillId, ctx: Context, store: StoreDep) -> SkillOut:
    skill = await store.skills.get(ctx.tenant_id, skill_id)
    if skill is None:
        raise SkillNotFound(f"No skill '{skill_id}'", details={"skillId": skill_id})
    return SkillOut.of(skill)


@router.delete(
    "/skills/{skill_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=error_responses(*AUTHENTICATED, "SKILL_NOT_FOUND"),
    summary="Forget one skill",
)
async def delete_skill(skill_id: SkillId, ctx: Context, store: StoreDep) -> Response:
    if not await store.skills.delete(ctx.tenant_id, skill_id):
        raise SkillNotFound(f"No skill '{skill_id}'", details={"skillId": skill_id})
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/skills",
    response_model=DeletedOut,
    responses=error_responses(*AUTHENTICATED),
    summary="Forget the tenant's skills: those of one site with `domain`, else all of them",
)
async def delete_skills(ctx: Context, store: StoreDep, domain: Domain = None) -> DeletedOut:
    return DeletedOut(deleted=await store.skills.delete_all(ctx.tenant_id, domain))


# -- recipes ------------------------------------------------------------------------------
@router.get("/recipes", response_model=RecipeListOut, responses=error_responses(*AUTHENTICATED), summary="The tenant's recipes, most recently used first")
async def list_recipes(
    ctx: Context,
    store: StoreDep,
    domain: Domain = None,
    status: Annotated[RecipeStatus | None, Query(description="Only recipes in this status")] = None,
    limit: Limit = 100,
    offset: Offset = 0,
) -> RecipeListOut:
    recipes = await store.recipes.list(ctx.tenant_id, domain, limit, offset, status=status)
    total = await store.recipes.total(ctx.tenant_id, domain, status=status)
    return RecipeListOut(recipes=[RecipeOut.of(r) for r in recipes], total=total)


@router.get("/recipes/{recipe_id}", response_model=RecipeOut, responses=error_responses(*AUTHENTICATED, "RECIPE_NOT_FOUND"), summary="One recipe and its steps")
async def get_recipe(recipe_id: RecipeId, ctx: Context, store: StoreDep) -> RecipeOut:
    recipe = await store.recipes.get(ctx.tenant_id, recipe_id)
    if recipe is None:
        raise RecipeNotFound(f"No recipe '{recipe_id}'", details={"recipeId": recipe_id})
    return RecipeOut.of(recipe)


@router.delete(
    "/recipes/{recipe_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    responses=error_responses(*AUTHENTICATED, "RECIPE_NOT_FOUND"),
    summary="Forget one recipe",
)
async def delete_recipe(recipe_id: RecipeId, ctx: Context, store: StoreDep) -> Response:
    if not await store.recipes.delete(ctx.tenant_id, recipe_id):
        raise RecipeNotFound(f"No recipe '{recipe_id}'", details={"recipeId": recipe_id})
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.delete(
    "/recipes",
    response_model=DeletedOut,
    responses=error_responses(*AUTHENTICATED),
    summary="Forget the tenant's recipes: those of one site with `domain`, else all of them",
)
async def delete_recipes(ctx: Context, store: StoreDep, domain: Domain = None) -> DeletedOut:
    return DeletedOut(deleted=await store.recipes.delete_all(ctx.tenant_id, domain))


# -- settings -----------------------------------------------------------------------------
@router.get(
    "/memory/settings",
    response_model=MemorySettingsOut,
    responses=error_responses(*AUTHENTICATED),
    summary="The tenant's memory switches (both on unless turned off)",
)
async def get_memory_settings(ctx: Context, store: StoreDep) -> MemorySettingsOut:
    return MemorySettingsOut.of(await store.memory_settings.get(ctx.tenant_id))


@router.put(
    "/memory/settings",
    response_model=MemorySettingsOut,
    responses=error_responses(*AUTHENTICATED, *JSON_BODY),
    summary="Turn skills or replay on or off for the tenant",
    description="A partial body: a switch left out keeps its value. The answer is the tenant's new settings "
    "(the server's STEPWISE_MEMORY_SKILLS / STEPWISE_MEMORY_REPLAY switches may still turn memory off for every tenant).",
)
async def put_memory_settings(body: MemorySettingsIn, ctx: Context, deps: Deps, store: StoreDep) -> MemorySettingsOut:
    current = MemorySettingsOut.of(await store.memory_settings.get(ctx.tenant_id))
    settings = MemorySettings(
        tenant_id=ctx.tenant_id,
        skills=current.skills if body.skills is None else body.skills,
        replay=current.replay if body.replay is None else body.replay,
        updated_at=deps.now(),
    )
    await store.memory_settings.put(settings)
    return MemorySettingsOut.of(settings)
