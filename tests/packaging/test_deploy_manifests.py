"""The deployment files, without a cluster: ``deploy/k8s/`` against the Kubernetes API schemas
(``kubernetes-validate``, strict: an unknown field is an error) and against what its users rely
on, and ``deploy/compose.yaml``'s structure, which the Kubernetes manifests mirror."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
COMPOSE = ROOT / "deploy" / "compose.yaml"
#: The Kubernetes version the manifests are written for (kustomization.yaml says so): its API
#: schemas, which kubernetes-validate carries (1.25 to 1.37 in its release 1.37.0).
K8S_VERSION = "1.30"
NOT_RESOURCES = {"kustomization.yaml", "secret.example.yaml"}
#: The pieces of a11y's commands that differ by design: compose writes the URLs out, the
#: manifests expand them from the Secret.
URL_OPTIONS = ("--database", "--queue")
SECRET_NAME = "a11y"
#: Environment variables whose value must never be written into a manifest.
SECRET_VARIABLES = re.compile(r"TOKEN|PASSWORD|_URL$|SECRET|KEY")


#: libyaml's parser when PyYAML has it: the pure-Python one takes a tenth of a second a file.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@cache
def _documents(path: Path) -> list[dict[str, Any]]:
    """The documents of a file, parsed once (the tests only read them)."""
    return [doc for doc in yaml.load_all(path.read_text(encoding="utf-8"), Loader=_LOADER) if doc]


@cache
def _resources() -> list[tuple[str, dict[str, Any]]]:
    return [
        (path.name, doc)
        for path in sorted(K8S.glob("*.yaml"))
        if path.name not in NOT_RESOURCES
        for doc in _documents(path)
    ]


def _by_kind(kind: str) -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for _, doc in _resources() if doc["kind"] == kind}


def _workloads() -> list[dict[str, Any]]:
    return [doc for _, doc in _resources() if doc["kind"] in ("Deployment", "StatefulSet")]


def _containers(workload: dict[str, Any]) -> list[dict[str, Any]]:
    pod = workload["spec"]["template"]["spec"]
    return [*pod.get("initContainers", []), *pod["containers"]]


def _compose() -> dict[str, Any]:
    return _documents(COMPOSE)[0]


def _compose_image(text: str) -> str:
    """``${A11Y_IMAGE:-localhost/a11y:latest}`` -> its default."""
    found = re.fullmatch(r"\$\{\w+:-([^}]+)\}", text)
    return found.group(1) if found else text


def _without_urls(command: list[str]) -> list[str]:
    """The command with the values of ``--database`` and ``--queue`` left out."""
    kept, skip = [], False
    for part in command:
        if not skip:
            kept.append(part)
        skip = part in URL_OPTIONS
    return kept


def test_every_manifest_is_valid_for_the_kubernetes_api():
    resources = _resources()
    assert len(resources) >= 9, [name for name, _ in resources]
    for name, doc in [*resources, *(("secret.example.yaml", d) for d in _documents(K8S / "secret.example.yaml"))]:
        try:
            kubernetes_validate.validate(doc, K8S_VERSION, strict=True)
        except kubernetes_validate.ValidationError as exc:
            where = ".".join(str(part) for part in exc.path)
            pytest.fail(f"{name}: {doc['kind']}/{doc['metadata']['name']} at {where}: {exc.message}")
        except kubernetes_validate.SchemaNotFoundError as exc:  # a kind the version lacks
            pytest.fail(f"{name}: {exc.message}")


def test_the_kustomization_applies_every_manifest_but_the_secret_example():
    kustomization = _documents(K8S / "kustomization.yaml")[0]
    assert kustomization["kind"] == "Kustomization"
    on_disk = {path.name for path in K8S.glob("*.yaml")} - NOT_RESOURCES
    assert sorted(kustomization["resources"]) == sorted(on_disk)
    assert not [doc for _, doc in _resources() if doc["kind"] == "Secret"]
    images = {c["image"].rsplit(":", 1)[0] for w in _workloads() for c in _containers(w)}
    assert {entry["name"] for entry in kustomization["images"]} <= images
    assert f"Kubernetes {K8S_VERSION} API" in (K8S / "kustomization.yaml").read_text()


def test_every_container_runs_as_non_root_read_only_with_resources():
    for workload in _workloads():
        pod = workload["spec"]["template"]["spec"]
        assert pod.get("automountServiceAccountToken") is False, workload["metadata"]["name"]
        for container in _containers(workload):
            where = f"{workload['metadata']['name']}/{container['name']}"
            context = {**pod.get("securityContext", {}), **container.get("securityContext", {})}
            assert context.get("runAsNonRoot") is True, where
            assert context.get("runAsUser", 0) > 0, where
            assert context.get("allowPrivilegeEscalation") is False, where
            assert context.get("capabilities", {}).get("drop") == ["ALL"], where
            assert context.get("readOnlyRootFilesystem") is True, where
            for bound in ("requests", "limits"):
                assert set(container["resources"].get(bound, {})) >= {"cpu", "memory"}, where


def test_the_service_is_probed_on_health_and_reached_through_its_port():
    deployment = _by_kind("Deployment")["a11y"]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {port["name"]: port["containerPort"] for port in container["ports"]}
    assert ports == {"http": 8080}  # the port the image's HEALTHCHECK and EXPOSE name
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        check = container[probe]["httpGet"]
        assert check["path"] == "/health" and ports.get(check["port"], check["port"]) == 8080, probe
    service = _by_kind("Service")["a11y"]
    assert service["spec"]["selector"].items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    assert service["spec"]["ports"][0]["targetPort"] == "http"
    assert service["spec"].get("type", "ClusterIP") == "ClusterIP"  # as compose: not public


def test_the_images_and_commands_are_compose_s():
    services = _compose()["services"]
    a11y_image = _compose_image(services["service"]["image"])
    assert _compose_image(services["worker"]["image"]) == a11y_image == "localhost/a11y:latest"
    expected = {
        "a11y": a11y_image,
        "a11y-worker": a11y_image,
        "redis": services["redis"]["image"],
        "postgres": services["postgres"]["image"],
    }
    assert {w["metadata"]["name"]: {c["image"] for c in _containers(w)} for w in _workloads()} == {
        name: {image} for name, image in expected.items()
    }
    deployments = _by_kind("Deployment")
    for name, compose_name in (("a11y", "service"), ("a11y-worker", "worker")):
        (container,) = deployments[name]["spec"]["template"]["spec"]["containers"]
        assert "command" not in container  # the image's entrypoint, a11y
        assert _without_urls(container["args"]) == _without_urls(services[compose_name]["command"])
    redis = _by_kind("StatefulSet")["redis"]["spec"]["template"]["spec"]["containers"][0]
    assert redis["args"] == services["redis"]["command"]
    assert deployments["a11y-worker"]["spec"]["replicas"] == services["worker"]["deploy"]["replicas"]
    autoscaler = _by_kind("HorizontalPodAutoscaler")["a11y-worker"]["spec"]
    assert autoscaler["scaleTargetRef"] == {"apiVersion": "apps/v1", "kind": "Deployment", "name": "a11y-worker"}
    assert autoscaler["minReplicas"] == services["worker"]["deploy"]["replicas"] < autoscaler["maxReplicas"]


def test_secrets_are_referenced_never_written_in():
    (example,) = _documents(K8S / "secret.example.yaml")
    keys = set(example["stringData"])
    for name in ("A11Y_API_TOKEN", "POSTGRES_PASSWORD"):
        assert example["stringData"][name].startswith("CHANGE-ME"), name
    # The URLs compose uses, without the password (PGPASSWORD gives it).
    queue = _compose()["services"]["worker"]["command"]
    assert example["stringData"]["A11Y_QUEUE_URL"] == queue[queue.index("--queue") + 1]
    assert example["stringData"]["A11Y_DATABASE_URL"] == "postgresql+psycopg://a11y@postgres:5432/a11y"

    referenced = set()
    for workload in _workloads():
        pod = workload["spec"]["template"]["spec"]
        for volume in pod.get("volumes", []):
            if "secret" in volume:
                assert volume["secret"]["secretName"] == SECRET_NAME
                referenced |= {item["key"] for item in volume["secret"]["items"]}
        for container in _containers(workload):
            where = f"{workload['metadata']['name']}/{container['name']}"
            env = {entry["name"]: entry for entry in container.get("env", [])}
            for name, entry in env.items():
                if SECRET_VARIABLES.search(name) and not name.endswith("_FILE"):
                    assert "value" not in entry, f"{where}: {name} is written in"
                    ref = entry["valueFrom"]["secretKeyRef"]
                    assert ref["name"] == SECRET_NAME, where
                    referenced.add(ref["key"])
            words = [*container.get("command", []), *container.get("args", [])]
            assert not [w for w in words if re.search(r"\w+://\S*@", w)], f"{where}: credentials in argv"
            for variable in re.findall(r"\$\((\w+)\)", " ".join(words)):
                assert variable in env, f"{where}: $({variable}) is not in its env"
    assert referenced == keys  # every key is used, and nothing else is needed


def test_state_is_kept_on_claims():
    statefulsets = _by_kind("StatefulSet")
    assert set(statefulsets) == {"redis", "postgres"}
    for name, mount in (("redis", "/data"), ("postgres", "/var/lib/postgresql/data")):
        spec = statefulsets[name]["spec"]
        (claim,) = spec["volumeClaimTemplates"]
        (container,) = spec["template"]["spec"]["containers"]
        mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
        assert mounts[mount] == claim["metadata"]["name"], name
        assert _by_kind("Service")[spec["serviceName"]]["spec"]["clusterIP"] == "None"


def test_compose_keeps_the_state_and_publishes_only_the_service_on_loopback():
    compose = _compose()
    services = compose["services"]
    redis = services["redis"]
    assert redis["command"][redis["command"].index("--appendonly") + 1] == "yes"
    assert [v.split(":")[1] for v in redis["volumes"]] == ["/data"]
    postgres = services["postgres"]
    assert [v.split(":")[1] for v in postgres["volumes"]] == ["/var/lib/postgresql/data"]
    assert {v.split(":")[0] for v in (*redis["volumes"], *postgres["volumes"])} <= set(compose["volumes"])
    assert postgres["environment"]["POSTGRES_PASSWORD_FILE"].startswith("/run/secrets/")
    assert [name for name, service in services.items() if "ports" in service] == ["service"]
    assert all(port.startswith("127.0.0.1:") for port in services["service"]["ports"])
    assert services["service"]["environment"]["A11Y_API_TOKEN"].startswith("${A11Y_API_TOKEN:?")
