# The a11y image: Debian's Chromium and the a11y wheel, run as a non-root user.
#
# The build context is a directory holding the wheel (and nothing else is needed):
#   python -m build --wheel --outdir dist
#   podman build --format docker -t a11y -f Dockerfile dist   # or: docker build -t a11y -f Dockerfile dist
# (podman's default OCI format would drop the HEALTHCHECK.)
# Runs `a11y serve` on 0.0.0.0:8080 by default; give another command as arguments:
#   podman run a11y worker --database URL --queue redis://HOST:6379/0
#   podman run a11y mcp --http --host 0.0.0.0 --port 8931
# deploy/compose.yaml runs the service, two workers, Redis and PostgreSQL together (deploy/k8s/
# the same on Kubernetes);
# scripts/test_image.sh builds this image and tries it.
FROM debian:bookworm-slim

# Chromium renders the pages, its fonts draw their text (contrast and reflow checks measure
# it), tesseract reads text in images (the image-of-text check), python3 runs a11y.
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates chromium fonts-liberation python3 python3-venv tesseract-ocr \
    && apt-get clean && rm -rf /var/lib/apt/lists/*

COPY a11y-*.whl /tmp/wheel/
# A certificate bundle for pip, when the build's network passes through a TLS-inspecting proxy
# (scripts/test_image.sh mounts the host's PIP_CERT and names it here); unset otherwise.
ARG PIP_CERT
RUN python3 -m venv /opt/a11y \
    && /opt/a11y/bin/pip install --no-cache-dir --disable-pip-version-check /tmp/wheel/a11y-*.whl \
    && rm -rf /tmp/wheel

# Chromium's own sandbox needs user namespaces, which container runtimes usually refuse; the
# container is the boundary here, so the browser runs without it (a wrapper, not a flag of
# a11y's, so a11y keeps its own default everywhere else).
RUN printf '#!/bin/sh\nexec /usr/lib/chromium/chromium --no-sandbox "$@"\n' > /usr/local/bin/chromium-in-container \
    && chmod 0755 /usr/local/bin/chromium-in-container

RUN useradd --create-home --uid 10001 --user-group a11y
USER a11y
WORKDIR /home/a11y
ENV PATH=/opt/a11y/bin:$PATH \
    CHROME_PATH=/usr/local/bin/chromium-in-container \
    PYTHONUNBUFFERED=1

# The health check asks the service on A11Y_HEALTH_PORT: set it when `serve --port` differs.
ENV A11Y_HEALTH_PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD ["/opt/a11y/bin/python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%d/health' % int(os.environ['A11Y_HEALTH_PORT']), timeout=4)"]

ENTRYPOINT ["a11y"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]
