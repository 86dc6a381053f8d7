"""Durable LangGraph checkpoints: sessions that survive a restart and pause for a human."""

from checkpoint_redis.redis_saver import AsyncRedisSaver

__all__ = ["AsyncRedisSaver"]
