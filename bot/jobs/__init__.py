"""Agent work after the ack: typed jobs, and two runners behind one protocol.

`memory.InProcessJobRunner` runs jobs as tasks of this process; `redis_streams.RedisJobQueue`
shares them between replicas on a Redis Stream so they survive their worker.
"""

from bot.jobs.model import AskJob, Job, JobHandler, JobRunner, ResumeJob, ToolJob, Where, job_from_json

__all__ = ["AskJob", "Job", "JobHandler", "JobRunner", "ResumeJob", "ToolJob", "Where", "job_from_json"]
