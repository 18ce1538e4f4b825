function e(e,t){return n=>{e?.(n),t?.(n)}}export{e as t};
//# sourceMappingURL=create-event-handler-BFtKR396.js.map