// Function expression (): the rendered text of the document's body, at most 20,000 characters, for the instructions a page gives on leaving a component.
function () {
  return (document.body ? document.body.innerText : '').slice(0, 20000);
}
