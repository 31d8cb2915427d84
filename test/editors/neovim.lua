-- Neovim's own LSP client (Debian's neovim, 0.7 or newer) with `promptwright lsp --stdio`, headless: it opens the
-- files of a workspace, and writes what the editor shows to a JSON file for test/editors/neovim.test.mjs to
-- judge: each buffer's diagnostics, a completion list, a hover's floating window, and a buffer after a code
-- action chosen by its title. Run as `nvim --headless -u NONE -i NONE -n -c 'luafile neovim.lua'` with
-- PW_NODE, PW_CLI, PW_DIR (the workspace) and PW_OUT (the results file) in the environment.
local env = vim.env
local out = { nvim = vim.version() }

local function write()
  local f = assert(io.open(env.PW_OUT, 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
end

local function wait(what, ms, test)
  if not vim.wait(ms, test, 50) then error('timed out waiting for ' .. what) end
end

local client_id = vim.lsp.start_client({
  name = 'promptwright',
  cmd = { env.PW_NODE, env.PW_CLI, 'lsp', '--stdio' },
  root_dir = env.PW_DIR,
  init_options = { promptwright = { validation = { debounceMs = 0 } } },
})

local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(env.PW_DIR .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  return buf
end

-- what the editor holds of a buffer's diagnostics (0-based lines and columns, as Neovim keeps them)
local function diagnostics(buf, count)
  wait('diagnostics', 20000, function() return #vim.diagnostic.get(buf) >= count end)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = d.code, source = d.source, message = d.message,
    })
  end
  return list
end

local function completion(buf, line, character)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = character } }
  local results = vim.lsp.buf_request_sync(buf, 'textDocument/completion', params, 10000) or {}
  local items = {}
  for _, r in pairs(results) do
    for _, item in ipairs(r.result and (r.result.items or r.result) or {}) do
      table.insert(items, {
        label = item.label,
        detail = item.detail,
        documentation = item.documentation and (item.documentation.value or item.documentation) or nil,
        newText = item.textEdit and item.textEdit.newText or item.insertText,
      })
    end
  end
  return items
end

-- the hover as Neovim shows it: the lines of its floating window
local function hover(buf, line, col)
  vim.api.nvim_win_set_cursor(0, { line + 1, col })
  vim.lsp.buf.hover()
  local lines
  wait('the hover window', 10000, function()
    for _, win in ipairs(vim.api.nvim_list_wins()) do
      if vim.api.nvim_win_get_config(win).relative ~= '' then
        lines = vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false)
        return true
      end
    end
    return false
  end)
  for _, win in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(win).relative ~= '' then vim.api.nvim_win_close(win, true) end
  end
  return lines
end

-- the code action titled `title` on the diagnostic at the cursor, applied by Neovim as a person picks it
local function code_action(buf, line, col, title)
  vim.api.nvim_win_set_cursor(0, { line + 1, col })
  local offered = {}
  local before = vim.api.nvim_buf_get_changedtick(buf)
  vim.ui.select = function(items, opts, on_choice)
    for i, item in ipairs(items) do
      local label = opts.format_item(item)
      table.insert(offered, label)
      if item[2].title == title then return on_choice(item, i) end
    end
    on_choice(nil, nil)
  end
  vim.lsp.buf.code_action()
  wait('the code action "' .. title .. '" applied', 10000, function()
    return vim.api.nvim_buf_get_changedtick(buf) ~= before
  end)
  return { offered = offered, lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false) }
end

local ok, err = pcall(function()
  wait('the server to start', 20000, function()
    local c = vim.lsp.get_client_by_id(client_id)
    return c ~= nil and c.initialized
  end)
  -- a defective request file
  local request = open('defective.prompt.json')
  out.request = { diagnostics = diagnostics(request, 2) }
  out.request.completion = completion(request, 1, 13)
  out.request.hover = hover(request, 2, 5)
  out.request.fix = code_action(request, 4, 25, "Change to 'user'")
  -- a YAML case file
  local cases = open('support.cases.yaml')
  out.cases = { diagnostics = diagnostics(cases, 3) }
  out.cases.completion = completion(cases, 5, 6)
  out.cases.fix = code_action(cases, 7, 8, "Rename to 'contains'")
end)
if not ok then out.error = tostring(err) end
write()
vim.lsp.stop_client(client_id)
vim.wait(3000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 50)
vim.cmd('qall!')
