// Function expression (name, limit): awaits the string promise globalThis[name] and keeps the
// text as globalThis[name + 'Text']; returns the text when it has at most limit characters,
// else its length (the caller then reads it in slices).
(function (name, limit) {
  return globalThis[name].then((text) => {
    globalThis[name + 'Text'] = text;
    return text.length <= limit ? text : text.length;
  });
})
