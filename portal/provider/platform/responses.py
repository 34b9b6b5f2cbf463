"""The provider answers in JSON-LD, like the API it stands in for."""

from fastapi.responses import JSONResponse


class JsonLdResponse(JSONResponse):
    media_type = "application/ld+json"
