function e(e,t){return n=>{if(typeof n!=`string`||n.trim().length===0)throw Error(t);return`${e}-${n}`}}export{e as t};
//# sourceMappingURL=get-safe-id-CrGwzW5e.js.map