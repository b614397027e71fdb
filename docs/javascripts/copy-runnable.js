// The copy button of a Python session (`>>>` examples) copies code that runs: the prompts
// `>>> ` and `... ` are taken off and the printed output is left out. Other blocks are copied
// as they are. Material copies a button's `data-clipboard-text` when it has one, so that
// attribute is set on the button just before its click is handled (capture phase).

function runnable(text) {
  const lines = text.replace(/\n$/, "").split("\n");
  if (!lines.some((line) => line.startsWith(">>>"))) return null;
  const code = [];
  for (const line of lines) {
    if (line.startsWith(">>> ") || line.startsWith("... ")) code.push(line.slice(4));
    else if (line === ">>>" || line === "...") code.push("");
  }
  return code.join("\n") + "\n";
}

if (typeof document !== "undefined") {
  document.addEventListener(
    "click",
    (event) => {
      const button = event.target instanceof Element && event.target.closest(".md-clipboard");
      if (!button) return;
      const target = document.querySelector(button.getAttribute("data-clipboard-target") || "");
      const code = target ? runnable(target.textContent || "") : null;
      if (code !== null) button.setAttribute("data-clipboard-text", code);
    },
    true,
  );
}

if (typeof module !== "undefined") module.exports = { runnable };
