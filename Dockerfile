# syntax=docker/dockerfile:1
# Missive, the Discord bot: a multi-stage build into a small non-root image.
#   docker build -t missive .
#   docker run -d --name missive -e DISCORD_TOKEN=... -v missive-data:/data missive
# The data file lives in the /data volume; mount your own config at /etc/missive/config.yaml.

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/missive ./cmd/missive && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/missive /usr/local/bin/missive
# The volume starts owned by the non-root user (uid 65532), so the bot can write its data file.
COPY --from=build --chown=65532:65532 /out/data /data
COPY --chown=nonroot:nonroot <<'YAML' /etc/missive/config.yaml
data: /data/missive.db
# Inside the container the metrics must listen on all interfaces to be reachable;
# publish the port only on a private network.
listen: 0.0.0.0:9464
YAML
USER nonroot:nonroot
VOLUME ["/data"]
EXPOSE 9464
ENTRYPOINT ["/usr/local/bin/missive"]
CMD ["run", "--config", "/etc/missive/config.yaml"]
