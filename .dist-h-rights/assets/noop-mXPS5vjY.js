var e=()=>{};export{e as t};
//# sourceMappingURL=noop-mXPS5vjY.js.map