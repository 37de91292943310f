"""The one warm browser of the service, relaunched whenever it dies: the generic supervisor
of :mod:`cdpdriver.supervisor` with the engine's warm-up on every launch, the service's
logger, and the health report of ``GET /health``."""

from __future__ import annotations

from audit.models import BrowserInfo, HealthStatus
from audit.spares import warm_up
from cdpdriver.supervisor import BrowserFactory, BrowserUnavailable
from cdpdriver.supervisor import BrowserSupervisor as _Supervisor

from .config import log

__all__ = ["BrowserSupervisor", "BrowserUnavailable"]


class BrowserSupervisor(_Supervisor):
    """The service's browser: warmed up for audits on every (re)launch."""

    def __init__(self, open_browser: BrowserFactory, max_backoff: float = 30.0) -> None:
        super().__init__(open_browser, max_backoff, on_ready=warm_up, logger=log)

    async def health(self, wait: float) -> HealthStatus:
        """Healthy with the browser build, or unhealthy with the reason. A browser that is
        starting gets ``wait`` seconds; one whose last launch failed is reported at once."""
        browser = await self.wait_settled(wait)
        if browser is None:
            return HealthStatus(
                status="unhealthy",
                browser=BrowserInfo(connected=False),
                reason=self.last_error or "the browser is still starting",
            )
        return HealthStatus(
            status="healthy",
            browser=BrowserInfo(
                connected=True, version=browser.version.product if browser.version else None
            ),
        )
