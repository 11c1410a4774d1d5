#include "form_fields.h"

#include "artifact_check.h"
#include "html.h"

namespace xq::coord::web {

namespace {

std::string selected(bool yes) {
    return yes ? " selected" : "";
}

}  // namespace

std::string FormFields::value(const std::string& name, const std::string& fallback) const {
    auto it = values_.find(name);
    return it == values_.end() ? fallback : it->second;
}

std::string FormFields::field(const std::string& label, const std::string& name, const std::string& fallback,
                              const std::string& help) const {
    return "<label>" + label + " <input name=\"" + name + "\" id=\"" + name + "\" value=\"" +
           html::escape(value(name, fallback)) + "\"></label> <span class=\"muted\">" + help + "</span><br>";
}

std::string FormFields::choice(const std::string& name,
                               const std::vector<std::pair<std::string, std::string>>& options) const {
    const std::string chosen = value(name, "");  // none marked: the browser shows the first
    std::string s = "<select name=\"" + name + "\" id=\"" + name + "\">";
    for (const auto& [v, text] : options)
        s += "<option value=\"" + v + "\"" + selected(v == chosen) + ">" + text + "</option>";
    return s + "</select>";
}

std::string FormFields::artifactChoice(const std::string& name, const std::string& emptyChoice,
                                       const char* kind,
                                       const std::vector<std::pair<std::string, std::string>>& extra) const {
    const std::string chosen = value(name, "");
    std::string s = "<select name=\"" + name + "\" id=\"" + name + "\"><option value=\"\">" +
                    html::escape(emptyChoice) + "</option>";
    for (const auto& [v, text] : extra)
        s += "<option value=\"" + html::escape(v) + "\"" + selected(v == chosen) + ">" + text + "</option>";
    for (const auto& a : artifacts_)
        if (a.kind == kind || (a.kind.empty() && std::string(kind) != ArtifactKindEngine))
            s += "<option value=\"" + html::escape(a.sha256) + "\"" + selected(a.sha256 == chosen) + ">" +
                 html::escape(a.name) + " (" + html::escape(a.sha256.substr(0, 12)) + ", " +
                 html::compact(double(a.size)) + " bytes)</option>";
    return s + "</select>";
}

}  // namespace xq::coord::web
