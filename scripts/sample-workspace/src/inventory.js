'use strict';

/** An in-memory stock list: item name -> { quantity, price }. */
function createInventory() {
  const items = new Map();

  function add(name, quantity, price) {
    if (items.has(name)) throw new Error(`${name} is already in the inventory`);
    items.set(name, { quantity, price });
  }

  function restock(name, amount) {
    const item = items.get(name);
    if (!item) throw new Error(`no item called ${name}`);
    if (amount <= 0) return item.quantity;
    item.quantity += amount;
    return item.quantity;
  }

  function sell(name, amount) {
    const item = items.get(name);
    if (!item) throw new Error(`no item called ${name}`);
    if (item.quantity < amount) throw new Error(`only ${item.quantity} ${name} left`);
    item.quantity -= amount;
    return item.price * amount;
  }

  function value() {
    let total = 0;
    for (const { quantity, price } of items.values()) total += quantity * price;
    return total;
  }

  return { add, restock, sell, value };
}

module.exports = { createInventory };
