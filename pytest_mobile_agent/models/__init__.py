"""Models in the loop: one client for any OpenAI-compatible endpoint, and for the other APIs in
`models/apis/` (`ModelConfig(api=...)`, `client.ask(request)`).

    from pytest_mobile_agent.models import ChatClient, ModelConfig, system, user

    client = ChatClient(ModelConfig(model="gpt-4o"))
    reply = client.chat([system("You operate a phone."), user("What now?", images=[png])])
    reply.text, reply.tokens_in, reply.tokens_out, reply.cost_usd, reply.retries

Built on the `openai` SDK with its own retries turned off: this client retries 429, 5xx, timeouts
and connection errors with backoff, counting each retry (`client.stats`). Usage comes from the
response's `usage`, cost from the price table. `--mobile-model-cache DIR` records every request
and response, keyed by the episode and the call's place in it (models/cache.py);
`--mobile-model-replay` answers from that record only.
The API key is read from the environment when the client is made and is written nowhere.
"""

from pytest_mobile_agent.models.client import ChatClient, ModelConfig, ModelStats, Reply
from pytest_mobile_agent.models.errors import ModelError, ReplayMiss
from pytest_mobile_agent.models.messages import assistant, image_part, system, user

__all__ = [
    "ChatClient",
    "ModelConfig",
    "ModelError",
    "ModelStats",
    "Reply",
    "ReplayMiss",
    "assistant",
    "image_part",
    "system",
    "user",
]
