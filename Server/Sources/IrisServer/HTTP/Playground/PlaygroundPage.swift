/// The playground's page: plain HTML and CSS, its script in ``PlaygroundScript``. The form's
/// field names are those of ``PlaygroundForm`` and of the page's own query, so a state of the
/// page is a link (`/playground?source=local:///x.jpg&rs=fill&w=300&h=200&g=sm&format=webp`).
enum PlaygroundPage {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Iris playground</title>
        <style>
        :root { --line: #d9dce1; --muted: #5f6672; --ink: #1d2129; --accent: #2f5fd0; font: 14px/1.4 system-ui, sans-serif; }
        body { margin: 0; color: var(--ink); background: #f3f4f6; }
        header { display: flex; gap: 14px; align-items: baseline; padding: 12px 20px; background: var(--ink); color: #fff; }
        header h1 { margin: 0; font-size: 18px; }
        header span { color: #b5bac4; font-size: 13px; }
        main { display: grid; grid-template-columns: 310px minmax(0, 1fr); gap: 20px; padding: 20px; align-items: start; }
        form, .box, figure { background: #fff; border: 1px solid var(--line); border-radius: 8px; }
        form { padding: 6px 14px 10px; }
        fieldset { margin: 0; padding: 8px 0 6px; border: 0; border-top: 1px solid var(--line); }
        fieldset:first-child { border-top: 0; }
        legend { float: left; width: 100%; padding: 4px 0; color: var(--muted); font-size: 11px; font-weight: 600;
                 letter-spacing: .06em; text-transform: uppercase; }
        label { display: grid; grid-template-columns: 100px minmax(0, 1fr); gap: 8px; align-items: center; margin: 5px 0; clear: both; }
        label.check { display: flex; gap: 6px; padding-left: 108px; }
        input, select { min-width: 0; padding: 3px 6px; font: inherit; border: 1px solid #c4c8cf; border-radius: 4px; background: #fff; }
        input:disabled { background: #f0f1f3; color: #9aa0aa; }
        .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; }
        .box { padding: 10px 14px; margin-bottom: 20px; }
        .box .title { color: var(--muted); font-size: 11px; font-weight: 600; letter-spacing: .06em; text-transform: uppercase; }
        #signed { margin-left: 8px; color: var(--muted); font-weight: normal; letter-spacing: 0; text-transform: none; }
        #url { display: block; margin-top: 4px; font: 13px/1.5 ui-monospace, SFMono-Regular, Menlo, monospace; color: var(--accent);
               word-break: break-all; }
        .error { margin: 6px 0 0; color: #b3261e; white-space: pre-wrap; }
        .panels { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 20px; align-items: start; }
        figure { margin: 0; padding: 12px; }
        figcaption { display: flex; gap: 8px; align-items: baseline; margin-bottom: 8px; }
        figcaption h2 { margin: 0; font-size: 15px; }
        figcaption small { color: var(--muted); }
        .stage { display: grid; place-items: center; min-height: 160px; overflow: auto; border-radius: 4px;
                 background: repeating-conic-gradient(#e6e8eb 0 25%, #fff 0 50%) 0 0 / 16px 16px; }
        .stage img { display: block; max-width: 100%; height: auto; }
        figure.loading .stage img { opacity: .45; }
        figure.failed .stage img { display: none; }
        dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 3px 14px; margin: 10px 0 0; font-size: 13px; }
        dt { color: var(--muted); }
        dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
        @media (max-width: 900px) { main, .panels { grid-template-columns: minmax(0, 1fr); } }
        </style>
        </head>
        <body>
        <header><h1>Iris playground</h1><span>development mode: the server builds and signs each URL, then renders it</span></header>
        <main>
        <form id="form" autocomplete="off">
          <fieldset>
            <legend>Source</legend>
            <label>Sample <select id="local"></select></label>
            <label>Remote URL <input id="remote" type="url" placeholder="https://…"></label>
            <input type="hidden" name="source">
          </fieldset>
          <fieldset>
            <legend>Size</legend>
            <label>Resizing <select name="rs">
              <option value="">fit (default)</option><option>fit</option><option>fill</option><option>fill-down</option>
              <option>force</option><option>auto</option></select></label>
            <label>Width, height <span class="pair"><input name="w" type="number" min="0" placeholder="width">
              <input name="h" type="number" min="0" placeholder="height"></span></label>
            <label>DPR <input name="dpr" type="number" min="0.25" max="8" step="0.25" placeholder="1"></label>
            <label class="check"><input name="el" type="checkbox" value="1"> enlarge</label>
          </fieldset>
          <fieldset>
            <legend>Gravity</legend>
            <label>Gravity <select name="g">
              <option value="">centre (default)</option><option value="sm">smart</option><option value="fp">focus point</option>
              <option value="no">north</option><option value="so">south</option><option value="ea">east</option>
              <option value="we">west</option><option value="noea">north-east</option><option value="nowe">north-west</option>
              <option value="soea">south-east</option><option value="sowe">south-west</option><option value="ce">centre</option>
            </select></label>
            <label>Focus x, y <span class="pair"><input name="gx" type="number" min="0" max="1" step="0.05" placeholder="0.5">
              <input name="gy" type="number" min="0" max="1" step="0.05" placeholder="0.5"></span></label>
          </fieldset>
          <fieldset>
            <legend>Output</legend>
            <label>Format <select name="format">
              <option value="">auto (from Accept)</option><option>jpeg</option><option>png</option><option>webp</option>
              <option>avif</option><option>gif</option></select></label>
            <label>Quality <input name="q" type="number" min="1" max="100" placeholder="80"></label>
            <label>Metadata <select name="sm"><option value="">strip (default)</option><option value="0">keep</option></select></label>
            <label>Source as <select name="enc"><option value="plain">plain</option><option value="base64">base64</option></select></label>
          </fieldset>
          <fieldset>
            <legend>Effects</legend>
            <label>Blur <input name="bl" type="number" min="0" max="100" step="0.5" placeholder="sigma"></label>
            <label>Sharpen <input name="sh" type="number" min="0" max="100" step="0.5" placeholder="sigma"></label>
            <label>Rotate <select name="rot"><option value="">0°</option><option value="90">90°</option>
              <option value="180">180°</option><option value="270">270°</option></select></label>
            <label>Background <input name="bg" placeholder="ffffff or 255:255:255"></label>
            <label>Padding <input name="pd" placeholder="10 or 10:20"></label>
            <label>More options <input name="extra" placeholder="pix:8/c:200:200"></label>
          </fieldset>
        </form>
        <section>
          <div class="box">
            <div class="title">URL <span id="signed"></span></div>
            <a id="url" href="#" target="_blank" rel="noopener"></a>
            <p id="error" class="error" hidden></p>
          </div>
          <div class="panels">
            <figure id="original">
              <figcaption><h2>Original</h2><small>the source with no options</small></figcaption>
              <div class="stage"><img alt="The source with no options"></div>
              <dl></dl>
            </figure>
            <figure id="result">
              <figcaption><h2>Result</h2><small>the URL above</small></figcaption>
              <div class="stage"><img alt="The result of the URL"></div>
              <dl></dl>
            </figure>
          </div>
        </section>
        </main>
        <script src="/playground/playground.js"></script>
        </body>
        </html>
        """#
}
