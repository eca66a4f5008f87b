/// The playground page's script: reads the form (and the page's query on load), asks the server
/// for the URL (`/playground/url`, which builds and signs it), fetches that URL and the source
/// with no options, and shows each image with its size, `Content-Type`, bytes and
/// `Server-Timing`. No URL is built or signed here.
enum PlaygroundScript {
    static let javaScript = #"""
        "use strict";
        (() => {
          const form = document.getElementById("form");
          const local = document.getElementById("local");
          const remote = document.getElementById("remote");
          const urlLink = document.getElementById("url");
          const signed = document.getElementById("signed");
          const errorText = document.getElementById("error");
          const figures = { original: document.getElementById("original"), result: document.getElementById("result") };
          // The result: what a browser sends for an <img>, so "auto" negotiates as on a page. The
          // original: any type, so it comes as JPEG (or PNG with alpha), not re-encoded to AVIF.
          const accept = { result: "image/avif,image/webp,image/apng,image/*,*/*;q=0.8", original: "*/*" };
          let generation = 0;
          let shownOriginal = null;
          let timer = 0;

          function syncControls() {
            form.elements.source.value = local.value || remote.value.trim();
            remote.disabled = local.value !== "";
            const focus = form.elements.g.value === "fp";
            form.elements.gx.disabled = !focus;
            form.elements.gy.disabled = !focus;
          }

          // The form as a query: the fields set, in the form's order, encoded without "+".
          function query() {
            syncControls();
            const pairs = [];
            for (const field of form.elements) {
              if (!field.name || field.disabled) continue;
              if (field.type === "checkbox" && !field.checked) continue;
              const value = field.value.trim();
              if (value === "" || (field.name === "enc" && value === "plain")) continue;
              pairs.push(encodeURIComponent(field.name) + "=" + encodeURIComponent(value));
            }
            return pairs.join("&");
          }

          function restore(params) {
            for (const field of form.elements) {
              if (!field.name || field.type === "hidden" || !params.has(field.name)) continue;
              if (field.type === "checkbox") field.checked = params.get(field.name) === field.value;
              else field.value = params.get(field.name);
            }
            const source = params.get("source");
            if (source) {
              if ([...local.options].some((option) => option.value === source)) {
                local.value = source;
              } else {
                local.value = "";
                remote.value = source;
              }
            }
          }

          async function loadSources() {
            let list = { sources: [] };
            try {
              const response = await fetch("/playground/sources");
              if (response.ok) list = await response.json();
            } catch (error) { /* no samples: a remote URL still works */ }
            for (const source of list.sources) local.add(new Option(source.replace(/^local:\/\/\//, ""), source));
            local.add(new Option("remote URL…", ""));
          }

          function bytes(count) {
            const text = count.toLocaleString("en-US") + " B";
            return count < 1024 ? text : text + " (" + (count / 1024).toFixed(1) + " KiB)";
          }

          // "fetch;dur=1.2, decode;dur=3.4" → "fetch 1.2 ms · decode 3.4 ms"
          function timing(header) {
            if (!header) return "(none)";
            return header.split(",").map((metric) => {
              const [name, ...parameters] = metric.trim().split(";").map((part) => part.trim());
              const duration = parameters.find((part) => part.startsWith("dur="));
              const description = parameters.find((part) => part.startsWith("desc="));
              return name + (description ? " " + description.slice(5) : "") + (duration ? " " + duration.slice(4) + " ms" : "");
            }).join(" · ");
          }

          function facts(figure, entries) {
            const list = figure.querySelector("dl");
            list.replaceChildren();
            for (const [name, value] of entries) {
              const term = document.createElement("dt");
              const detail = document.createElement("dd");
              term.textContent = name;
              detail.textContent = value;
              list.append(term, detail);
            }
          }

          function fail(figure, message) {
            figure.classList.remove("loading");
            figure.classList.add("failed");
            facts(figure, [["Error", message]]);
          }

          async function show(figure, url, token) {
            figure.classList.add("loading");
            const started = performance.now();
            let response, blob;
            try {
              response = await fetch(url, { headers: { Accept: accept[figure.id] }, cache: "no-store" });
              blob = await response.blob();
            } catch (error) {
              if (token === generation) fail(figure, String(error));
              return false;
            }
            const elapsed = performance.now() - started;
            if (token !== generation) return false;
            if (!response.ok) {
              fail(figure, response.status + " " + (await blob.text()).trim());
              return false;
            }
            const image = figure.querySelector("img");
            const previous = image.src;
            image.src = URL.createObjectURL(blob);
            try {
              await image.decode();
            } catch (error) {
              if (token === generation) fail(figure, "the browser cannot show " + response.headers.get("Content-Type"));
              return false;
            }
            if (previous.startsWith("blob:")) URL.revokeObjectURL(previous);
            if (token !== generation) return false;
            figure.classList.remove("loading", "failed");
            facts(figure, [
              ["Size", image.naturalWidth + " × " + image.naturalHeight],
              ["Format", response.headers.get("Content-Type") || "(none)"],
              ["Bytes", bytes(blob.size)],
              ["Server-Timing", timing(response.headers.get("Server-Timing"))],
              ["Round trip", elapsed.toFixed(0) + " ms"],
            ]);
            return true;
          }

          async function render() {
            const token = ++generation;
            const state = query();
            history.replaceState(null, "", state ? "?" + state : location.pathname);
            if (!form.elements.source.value) {
              errorText.textContent = "Choose a sample or enter a remote URL.";
              errorText.hidden = false;
              return;
            }
            let built;
            try {
              const response = await fetch("/playground/url?" + state);
              built = await response.json();
              if (!response.ok) throw new Error(built.error || response.status);
            } catch (error) {
              if (token !== generation) return;
              errorText.textContent = error.message;
              errorText.hidden = false;
              return;
            }
            if (token !== generation) return;
            errorText.hidden = true;
            urlLink.textContent = location.origin + built.url;
            urlLink.href = built.url;
            signed.textContent = built.signed ? "signed with the first key" : "unsigned (no key configured)";
            const work = [show(figures.result, built.url, token)];
            if (built.original !== shownOriginal) {
              work.push(show(figures.original, built.original, token).then((ok) => { if (ok) shownOriginal = built.original; }));
            }
            await Promise.all(work);
            if (token === generation) document.body.dataset.rendered = String(token);
          }

          form.addEventListener("submit", (event) => { event.preventDefault(); render(); });
          form.addEventListener("change", () => { clearTimeout(timer); render(); });
          form.addEventListener("input", (event) => {
            if (event.target.tagName === "SELECT" || event.target.type === "checkbox") return;
            clearTimeout(timer);
            timer = setTimeout(render, 400);
          });

          loadSources().then(() => {
            restore(new URLSearchParams(location.search));
            render();
          });
        })();
        """#
}
